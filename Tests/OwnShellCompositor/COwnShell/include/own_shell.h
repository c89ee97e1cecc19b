// A compositor's own shell, as every real compositor has: wl_compositor, wl_subcompositor,
// wl_shm, wl_output and xdg-shell, with its own definitions of the xdg-shell interface
// symbols (xdg-shell-protocol.c, wayland-scanner's private code), which SeatKitWayland must
// not define a second time. The Swift side (Compositor/main.swift) puts what it maps in
// SeatKit's surface tree and gives clients SeatKitWayland's seat and data device.
//
// Nothing is drawn: buffers are released as soon as they are committed, frame callbacks
// are answered every 16 ms. Subsurfaces get their role and are not shown; popups are placed
// below their anchor rectangle and never grab; a region is the union of what was added
// (subtract is ignored). Enough for GTK4, foot and wev.
#ifndef OWN_SHELL_H
#define OWN_SHELL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wayland-server-core.h>

/* What the shell tells the Swift side, with `context` as first argument. Surfaces are the
 * clients' wl_surface resources. */
struct own_shell_callbacks {
	void *context;
	/* A toplevel got its first buffer after acknowledging its configure. */
	void (*mapped)(void *context, struct wl_resource *surface, const char *app_id, int32_t width, int32_t height);
	/* A popup of `parent` (a wl_surface) mapped at x, y of the parent's surface. */
	void (*popup_mapped)(void *context, struct wl_resource *surface, struct wl_resource *parent, int32_t x, int32_t y,
	                     int32_t width, int32_t height);
	/* A mapped surface committed: its size, and its input region (own_surface_input_region). */
	void (*committed)(void *context, struct wl_resource *surface, int32_t width, int32_t height);
	/* A mapped toplevel or popup unmapped (a null buffer) or is being destroyed (`destroyed`). */
	void (*unmapped)(void *context, struct wl_resource *surface, bool destroyed);
};

struct own_shell;

/* Advertises wl_compositor (4), wl_subcompositor (1), wl_shm, xdg_wm_base (3) and one
 * wl_output (3) of `width`x`height` pixels at `scale` on `display`. */
struct own_shell *own_shell_create(struct wl_display *display, const struct own_shell_callbacks *callbacks,
                                   int32_t width, int32_t height, int32_t scale);

/* wl_pointer.set_cursor named `surface`: true if it has no role or is already a cursor. */
bool own_shell_assign_cursor_role(struct wl_resource *surface);

/* The rectangles of a wl_region of this shell (x, y, width, height each) into `out` (room for
 * `max`); returns how many, or -1 when `region` is not one of this shell's regions. */
int own_region_rects(struct wl_resource *region, int32_t *out, int max);

/* A surface's committed input region as own_region_rects does; -1 when it is infinite. */
int own_surface_input_region(struct wl_resource *surface, int32_t *out, int max);

/* The wl_output resources `client` bound (at most `max`); returns how many. */
int own_shell_output_resources(struct own_shell *shell, struct wl_client *client, struct wl_resource **out, int max);

/* The name of the xdg_wm_base interface this program defines. */
const char *own_xdg_wm_base_name(void);

#endif
