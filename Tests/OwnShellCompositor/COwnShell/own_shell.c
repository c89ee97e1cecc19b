// The interface descriptions a compositor's own xdg-shell code defines (wayland-scanner's
// private code would define these same symbols with their full message tables; for the
// link, that each exists here once is what matters).
#include "own_shell.h"

#include <stddef.h>
#include <wayland-server-core.h>

const struct wl_interface xdg_wm_base_interface = { "xdg_wm_base", 3, 0, NULL, 0, NULL };
const struct wl_interface xdg_positioner_interface = { "xdg_positioner", 3, 0, NULL, 0, NULL };
const struct wl_interface xdg_surface_interface = { "xdg_surface", 3, 0, NULL, 0, NULL };
const struct wl_interface xdg_toplevel_interface = { "xdg_toplevel", 3, 0, NULL, 0, NULL };
const struct wl_interface xdg_popup_interface = { "xdg_popup", 3, 0, NULL, 0, NULL };

static void bind_wm_base(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	(void)data;
	struct wl_resource *resource = wl_resource_create(client, &xdg_wm_base_interface, (int)version, id);
	if (resource == NULL) {
		wl_client_post_no_memory(client);
	}
}

struct wl_display *own_display_create(void) {
	return wl_display_create();
}

bool own_shell_advertise(struct wl_display *display) {
	return wl_global_create(display, &xdg_wm_base_interface, 3, NULL, bind_wm_base) != NULL;
}

const char *own_xdg_wm_base_name(void) {
	return xdg_wm_base_interface.name;
}
