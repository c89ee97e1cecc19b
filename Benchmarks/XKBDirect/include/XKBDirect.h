#ifndef XKB_DIRECT_H
#define XKB_DIRECT_H

#include <stdint.h>

/// The "raw" side of the key-to-text benchmark: xkbcommon called directly, with nothing
/// around it. An opaque xkb_state for the named layout (rules evdev, model pc105), or NULL.
struct xkb_direct;
struct xkb_direct *xkb_direct_new(const char *layout);
void xkb_direct_free(struct xkb_direct *direct);

/// Runs `count` key events (evdev keycodes; `pressed[i]` nonzero for a press) through the
/// three calls a compositor makes per key, in the order SeatKitXKB makes them: for a press,
/// xkb_state_key_get_one_sym and xkb_state_key_get_utf8 (state before the key), then
/// xkb_state_update_key; for a release, xkb_state_update_key. Returns a checksum of the
/// keysyms and text lengths, so the calls cannot be dropped.
uint64_t xkb_direct_run(struct xkb_direct *direct, const uint32_t *keycodes, const uint8_t *pressed, int count);

#endif
