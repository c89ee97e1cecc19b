/*
 * cursor-shape-v1 from SeatKit's wlroots bridge (seatkit_wlr_cursor_shape_manager_create;
 * wayland-protocols 1.32, wlroots 0.15 has no helper): a client names its cursor (a CSS name:
 * "text", "ew-resize") instead of drawing one. The bridge honours a request only from the
 * client with SeatKit's pointer focus, quoting a serial from its last wl_pointer.enter or
 * later, and draws the theme's image with the cursor the kiosk shows; a later
 * wl_pointer.set_cursor, or the pointer leaving, replaces it. Version 1 (shapes 1 to 34).
 * The kiosk prints "cursor shape NAME" for each honoured request (the bridge's log).
 */
#include "kiosk.h"

static void log_line(void *data, const char *line) {
	say("%s", line);
}

void shape_init(struct kiosk *k) {
	seatkit_wlr_cursor_shape_manager_set_log(seatkit_wlr_cursor_shape_manager_create(k->display, k->seat),
		log_line, NULL);
}
