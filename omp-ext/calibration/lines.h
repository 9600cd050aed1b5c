/*
 * The two line sizes memory is laid out by, defined once for the plugin
 * (pad.h) and for ompext-calibrate.
 *
 * Coherence line: the unit in which caches keep memory coherent, what one
 * transfer between two cores moves; 64 bytes on current x86 and most ARM
 * parts.  ompext-calibrate lays out the lines and multi-line messages it
 * times in it.
 *
 * Padding unit: how far apart data that different threads write must lie
 * not to interfere.  Two coherence lines: x86 prefetches lines in adjacent
 * pairs, so two threads writing neighbouring 64-byte lines still take them
 * from each other.  Flags, mailboxes and per-thread slots are aligned and
 * padded to it.
 */
#ifndef OMPEXT_LINES_H
#define OMPEXT_LINES_H

#define OMPEXT_COHERENCE_LINE_BYTES 64
#define OMPEXT_PADDING_UNIT_BYTES (2 * OMPEXT_COHERENCE_LINE_BYTES)

#endif /* OMPEXT_LINES_H */
