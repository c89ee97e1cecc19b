// A compositor's own xdg-shell, as every real compositor has: its own definitions of the
// xdg-shell interface symbols, which SeatKitWayland must not define a second time.
#ifndef OWN_SHELL_H
#define OWN_SHELL_H

#include <stdbool.h>
#include <wayland-server-core.h>

/* A display of the compositor's own, listening on no socket. */
struct wl_display *own_display_create(void);
/* Advertises the compositor's own xdg_wm_base global; its interface's name. */
bool own_shell_advertise(struct wl_display *display);
const char *own_xdg_wm_base_name(void);

#endif
