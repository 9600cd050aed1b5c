/*
 * Cache-line padding for everything more than one thread touches.
 *
 * OMPEXT_CACHE_LINE, the padding unit, is OMPEXT_PADDING_UNIT_BYTES of
 * lines.h by default: 128 bytes, since x86 prefetches lines in adjacent
 * pairs, so two threads writing neighbouring 64-byte lines still interfere.
 * Override with -DOMPEXT_CACHE_LINE=64 (a power of two, at least one
 * coherence line, OMPEXT_COHERENCE_LINE_BYTES).
 */
#ifndef OMPEXT_PAD_H
#define OMPEXT_PAD_H

#include "lines.h"
#include "ompext/abi.h"

#include <stdalign.h>
#include <stdint.h>

#ifndef OMPEXT_CACHE_LINE
#define OMPEXT_CACHE_LINE OMPEXT_PADDING_UNIT_BYTES
#endif
_Static_assert(OMPEXT_CACHE_LINE >= OMPEXT_COHERENCE_LINE_BYTES &&
                   (OMPEXT_CACHE_LINE & (OMPEXT_CACHE_LINE - 1)) == 0,
               "OMPEXT_CACHE_LINE must be a power of two >= 64");

/* One flag word alone on its line(s). */
typedef struct ompext_padded_word {
  alignas(OMPEXT_CACHE_LINE) ompext_flag_word_t word;
} ompext_padded_word_t;
_Static_assert(sizeof(ompext_padded_word_t) == OMPEXT_CACHE_LINE,
               "a padded word fills exactly one padded line");

/* Round bytes up to whole padded lines. */
static inline size_t ompext_pad_bytes(size_t bytes) {
  return (bytes + OMPEXT_CACHE_LINE - 1) & ~(size_t)(OMPEXT_CACHE_LINE - 1);
}

#endif /* OMPEXT_PAD_H */
