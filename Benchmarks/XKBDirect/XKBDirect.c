#include "XKBDirect.h"

#include <stdlib.h>
#include <xkbcommon/xkbcommon.h>

/// xkbcommon numbers keys as X did: evdev keycode + 8.
#define EVDEV_OFFSET 8

struct xkb_direct {
    struct xkb_context *context;
    struct xkb_keymap *keymap;
    struct xkb_state *state;
};

struct xkb_direct *xkb_direct_new(const char *layout) {
    struct xkb_direct *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
    struct xkb_rule_names names = { .rules = "evdev", .model = "pc105", .layout = layout };
    d->keymap = d->context ? xkb_keymap_new_from_names(d->context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS) : NULL;
    d->state = d->keymap ? xkb_state_new(d->keymap) : NULL;
    if (!d->state) {
        xkb_direct_free(d);
        return NULL;
    }
    return d;
}

void xkb_direct_free(struct xkb_direct *d) {
    if (!d) return;
    xkb_state_unref(d->state);
    xkb_keymap_unref(d->keymap);
    xkb_context_unref(d->context);
    free(d);
}

uint64_t xkb_direct_run(struct xkb_direct *d, const uint32_t *keycodes, const uint8_t *pressed, int count) {
    uint64_t checksum = 0;
    char text[64];
    for (int i = 0; i < count; i++) {
        xkb_keycode_t key = keycodes[i] + EVDEV_OFFSET;
        if (pressed[i]) {
            checksum += xkb_state_key_get_one_sym(d->state, key);
            checksum += (uint64_t)xkb_state_key_get_utf8(d->state, key, text, sizeof text);
            xkb_state_update_key(d->state, key, XKB_KEY_DOWN);
        } else {
            xkb_state_update_key(d->state, key, XKB_KEY_UP);
        }
    }
    return checksum;
}
