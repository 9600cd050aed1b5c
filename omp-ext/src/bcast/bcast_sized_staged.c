/*
 * Double-buffered staged broadcast (seed 000, "Double Buffering"), for
 * comparison: the root copies the message part by part into one of two
 * shared stage buffers of the team and notifies every receiver; while the
 * receivers copy part p out of one buffer, the root fills the other with
 * part p+1.  Before it refills a buffer the root waits until every receiver
 * has acknowledged the buffer's last part.  Every receiver reads the same
 * stage lines (the paper's many readers of one line), and each byte is
 * copied twice (root to stage, stage to receiver), which the pipelined
 * broadcast avoids; the model never picks it (OMPEXT_BCAST_SIZED=staged).
 *
 * Counting: a receiver's go[b] counts the uses of buffer b it received; the
 * root signals it for a buffer's next use only after that receiver
 * acknowledged the previous one, so no word runs past its waiter.  The acks
 * words count every acknowledgement ever given; the root of each broadcast
 * starts from the count the last root left in acks_due (after the closing
 * barrier, by which every acknowledgement has arrived).
 */
#include "bcast_sized_impl.h"

#include "wait.h"

#include <string.h>

void ompext_bcast_sized_staged(ompext_bcast_sized_t *s, int gtid, int tid,
                               ompext_bcast_request_t *req,
                               unsigned spin_polls) {
  const int n = s->nproc, root = req->root;
  const size_t part = OMPEXT_BCAST_SIZED_STAGE_BYTES, bytes = req->bytes;
  const uint64_t parts = (bytes + part - 1) / part;
  sized_stage_t *st = s->stage;
  char *buf = req->buf;
  if (tid == root) {
    uint64_t used[2] = {0, 0};
    for (uint64_t p = 0; p < parts; ++p) {
      const int b = (int)(p & 1);
      const size_t off = (size_t)p * part;
      const size_t len = bytes - off < part ? bytes - off : part;
      if (used[b]) /* every receiver copied this buffer's last part out */
        ompext_wait(gtid, &st->acks[b].word,
                    ompext_expect(st->acks_due[b] + (uint64_t)(n - 1) * used[b],
                                  1),
                    spin_polls);
      memcpy(st->buf[b], buf + off, len);
      for (int t = 0; t < n; ++t)
        if (t != root) /* the stage before the signal, by its release */
          ompext_signal(gtid, t, &s->stage_in[t].go[b]);
      ++used[b];
    }
    /* The last parts' acknowledgements arrive before the closing barrier
       ends; the next root counts from here. */
    st->acks_due[0] += (uint64_t)(n - 1) * used[0];
    st->acks_due[1] += (uint64_t)(n - 1) * used[1];
    return;
  }
  sized_own_t *own = &s->own[tid];
  const int copy = buf != req->root_buf; /* the root's buffer: already there */
  for (uint64_t p = 0; p < parts; ++p) {
    const int b = (int)(p & 1);
    const size_t off = (size_t)p * part;
    const size_t len = bytes - off < part ? bytes - off : part;
    ompext_wait(gtid, &s->stage_in[tid].go[b],
                ompext_expect(++own->stage_uses[b], 1), spin_polls);
    if (copy)
      memcpy(buf + off, st->buf[b], len);
    ompext_signal(gtid, root, &st->acks[b].word); /* buffer b is free */
  }
}
