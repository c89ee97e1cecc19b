/*
 * cursor-shape-v1 (wayland-protocols 1.32; wlroots 0.15 has no helper): a client names its
 * cursor (a CSS name: "text", "ew-resize") instead of drawing one. SeatKit's bridge decides
 * whether the request is honoured (the client must have SeatKit's pointer focus, and quote a
 * serial from its last wl_pointer.enter or later) and draws the theme's image with
 * wlr_xcursor_manager; a later wl_pointer.set_cursor, or the pointer leaving, replaces it.
 * Version 1 (shapes 1 to 34). The kiosk prints "cursor shape NAME" for each honoured request.
 */
#include <stdlib.h>
#include <wayland-server-core.h>
#include <wlr/types/wlr_seat.h>
#include "cursor-shape-v1-protocol.h"
#include "kiosk.h"

/* Version 1's shapes by value (1 is "default"): their CSS names, as cursor themes name them. */
static const char *const shape_names[] = {
	NULL, "default", "context-menu", "help", "pointer", "progress", "wait", "cell", "crosshair",
	"text", "vertical-text", "alias", "copy", "move", "no-drop", "not-allowed", "grab", "grabbing",
	"e-resize", "n-resize", "ne-resize", "nw-resize", "s-resize", "se-resize", "sw-resize",
	"w-resize", "ew-resize", "ns-resize", "nesw-resize", "nwse-resize", "col-resize", "row-resize",
	"all-scroll", "zoom-in", "zoom-out",
};
#define SHAPE_COUNT (sizeof(shape_names) / sizeof(shape_names[0]))

static void destroy_resource(struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

/* A device's user data: the kiosk, or NULL for an inert device (a tablet tool's: the kiosk
 * offers no tablet-v2, so none can exist). */
static void device_set_shape(struct wl_client *client, struct wl_resource *resource, uint32_t serial,
		uint32_t shape) {
	if (shape == 0 || shape >= SHAPE_COUNT) {
		wl_resource_post_error(resource, WP_CURSOR_SHAPE_DEVICE_V1_ERROR_INVALID_SHAPE,
			"shape %u is not one of version 1's", shape);
		return;
	}
	struct kiosk *k = wl_resource_get_user_data(resource);
	if (k && seatkit_wlr_seat_set_cursor_shape(k->seat, client, serial, shape_names[shape])) {
		say("cursor shape %s", shape_names[shape]);
	}
}

static const struct wp_cursor_shape_device_v1_interface device_impl = {
	.destroy = destroy_resource,
	.set_shape = device_set_shape,
};

static void make_device(struct wl_client *client, struct wl_resource *manager, uint32_t id, struct kiosk *k) {
	struct wl_resource *device = wl_resource_create(client, &wp_cursor_shape_device_v1_interface,
		wl_resource_get_version(manager), id);
	if (!device) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(device, &device_impl, k, NULL);
}

static void manager_get_pointer(struct wl_client *client, struct wl_resource *resource, uint32_t id,
		struct wl_resource *pointer) {
	/* An inert wl_pointer (its seat gone) makes an inert device. */
	struct kiosk *k = wlr_seat_client_from_pointer_resource(pointer) ? wl_resource_get_user_data(resource) : NULL;
	make_device(client, resource, id, k);
}

static void manager_get_tablet_tool(struct wl_client *client, struct wl_resource *resource, uint32_t id,
		struct wl_resource *tool) {
	make_device(client, resource, id, NULL);
}

static const struct wp_cursor_shape_manager_v1_interface manager_impl = {
	.destroy = destroy_resource,
	.get_pointer = manager_get_pointer,
	.get_tablet_tool_v2 = manager_get_tablet_tool,
};

static void bind_manager(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct wl_resource *resource = wl_resource_create(client, &wp_cursor_shape_manager_v1_interface, version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, data, NULL);
}

void shape_init(struct kiosk *k) {
	wl_global_create(k->display, &wp_cursor_shape_manager_v1_interface, 1, k, bind_manager);
}
