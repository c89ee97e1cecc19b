// The own-shell compositor's shell (see own_shell.h): plain libwayland-server, as a
// compositor's C shell code is.
#include "own_shell.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-server.h>

#include "xdg-shell-server-protocol.h"

#define MAX_RECTS 32

struct own_shell {
	struct wl_display *display;
	struct own_shell_callbacks callbacks;
	int32_t width, height, scale;
	struct wl_list outputs;         /* wl_output resources, by their link */
	struct wl_list frame_callbacks; /* wl_callback resources, by their link */
	struct wl_event_source *frame_timer;
};

enum own_role { ROLE_NONE, ROLE_TOPLEVEL, ROLE_POPUP, ROLE_SUBSURFACE, ROLE_CURSOR };

struct own_rects {
	bool infinite;
	int count;
	int32_t rects[MAX_RECTS][4];
};

struct own_xdg_surface;

struct own_surface {
	struct own_shell *shell;
	struct wl_resource *resource;
	enum own_role role;
	bool buffer_attached;                 /* pending: attach was called */
	struct wl_resource *pending_buffer;
	int32_t pending_scale, scale;
	bool has_buffer;
	int32_t buffer_width, buffer_height; /* in buffer pixels */
	bool input_region_set;                /* pending */
	struct own_rects pending_input, input;
	bool mapped;
	struct own_xdg_surface *xdg;
};

struct own_positioner {
	int32_t width, height;
	int32_t anchor_x, anchor_y, anchor_width, anchor_height;
	int32_t offset_x, offset_y;
};

struct own_xdg_surface {
	struct own_surface *surface;
	struct wl_resource *resource;
	struct wl_resource *toplevel, *popup;
	bool configured, acked;
	int32_t geometry_x, geometry_y;
	char app_id[128];
	struct own_surface *parent;         /* a popup's */
	struct own_positioner placement;     /* a popup's */
};

static const struct wl_surface_interface surface_impl;
static const struct wl_region_interface region_impl;

static struct own_surface *surface_of(struct wl_resource *resource) {
	if (resource == NULL || !wl_resource_instance_of(resource, &wl_surface_interface, &surface_impl)) {
		return NULL;
	}
	return wl_resource_get_user_data(resource);
}

static struct own_rects *region_of(struct wl_resource *resource) {
	if (resource == NULL || !wl_resource_instance_of(resource, &wl_region_interface, &region_impl)) {
		return NULL;
	}
	return wl_resource_get_user_data(resource);
}

static void destroy_resource(struct wl_client *client, struct wl_resource *resource) {
	(void)client;
	wl_resource_destroy(resource);
}

static int copy_rects(const struct own_rects *rects, int32_t *out, int max) {
	int n = rects->count < max ? rects->count : max;
	memcpy(out, rects->rects, sizeof(int32_t) * 4 * (size_t)n);
	return n;
}

/* MARK: wl_region */

static void region_add(struct wl_client *client, struct wl_resource *resource, int32_t x, int32_t y, int32_t w, int32_t h) {
	(void)client;
	struct own_rects *region = wl_resource_get_user_data(resource);
	if (region->count < MAX_RECTS && w > 0 && h > 0) {
		int32_t *r = region->rects[region->count++];
		r[0] = x;
		r[1] = y;
		r[2] = w;
		r[3] = h;
	}
}

static void region_subtract(struct wl_client *client, struct wl_resource *resource, int32_t x, int32_t y, int32_t w, int32_t h) {
	(void)client, (void)resource, (void)x, (void)y, (void)w, (void)h;
}

static const struct wl_region_interface region_impl = {
	.destroy = destroy_resource,
	.add = region_add,
	.subtract = region_subtract,
};

static void region_destroyed(struct wl_resource *resource) { free(wl_resource_get_user_data(resource)); }

int own_region_rects(struct wl_resource *region, int32_t *out, int max) {
	struct own_rects *rects = region_of(region);
	return rects == NULL ? -1 : copy_rects(rects, out, max);
}

int own_surface_input_region(struct wl_resource *surface, int32_t *out, int max) {
	struct own_surface *s = surface_of(surface);
	if (s == NULL || s->input.infinite) {
		return -1;
	}
	return copy_rects(&s->input, out, max);
}

/* MARK: frame callbacks */

static void callback_destroyed(struct wl_resource *resource) { wl_list_remove(wl_resource_get_link(resource)); }

static int answer_frame_callbacks(void *data) {
	struct own_shell *shell = data;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	uint32_t ms = (uint32_t)(now.tv_sec * 1000 + now.tv_nsec / 1000000);
	struct wl_resource *callback, *next;
	wl_resource_for_each_safe(callback, next, &shell->frame_callbacks) {
		wl_callback_send_done(callback, ms);
		wl_resource_destroy(callback);
	}
	wl_event_source_timer_update(shell->frame_timer, 16);
	return 0;
}

/* MARK: xdg-shell configure and map */

static void send_configure(struct own_xdg_surface *xdg) {
	struct own_shell *shell = xdg->surface->shell;
	if (xdg->toplevel != NULL) {
		struct wl_array states;
		wl_array_init(&states);
		uint32_t *state = wl_array_add(&states, sizeof(uint32_t));
		if (state != NULL) {
			*state = XDG_TOPLEVEL_STATE_ACTIVATED;
		}
		xdg_toplevel_send_configure(xdg->toplevel, 0, 0, &states);
		wl_array_release(&states);
	} else if (xdg->popup != NULL) {
		const struct own_positioner *p = &xdg->placement;
		xdg_popup_send_configure(xdg->popup, p->anchor_x + p->offset_x, p->anchor_y + p->anchor_height + p->offset_y,
		                         p->width, p->height);
	}
	xdg_surface_send_configure(xdg->resource, wl_display_next_serial(shell->display));
	xdg->configured = true;
}

static void unmap(struct own_surface *surface, bool destroyed) {
	if (!surface->mapped) {
		return;
	}
	surface->mapped = false;
	surface->shell->callbacks.unmapped(surface->shell->callbacks.context, surface->resource, destroyed);
}

static void commit_xdg(struct own_surface *surface) {
	struct own_xdg_surface *xdg = surface->xdg;
	if (xdg == NULL || (xdg->toplevel == NULL && xdg->popup == NULL)) {
		return;
	}
	if (!xdg->configured) {
		send_configure(xdg);
		return;
	}
	if (!surface->has_buffer) {
		if (surface->mapped) {
			/* A null buffer unmaps; the client starts again with an initial commit. */
			unmap(surface, false);
			xdg->configured = false;
			xdg->acked = false;
		}
		return;
	}
	if (surface->mapped || !xdg->acked) {
		return;
	}
	surface->mapped = true;
	struct own_shell *shell = surface->shell;
	int32_t width = surface->buffer_width / surface->scale, height = surface->buffer_height / surface->scale;
	if (xdg->toplevel != NULL) {
		shell->callbacks.mapped(shell->callbacks.context, surface->resource, xdg->app_id, width, height);
	} else if (xdg->parent != NULL && xdg->parent->resource != NULL) {
		const struct own_positioner *p = &xdg->placement;
		int32_t x = p->anchor_x + p->offset_x, y = p->anchor_y + p->anchor_height + p->offset_y;
		int32_t px = xdg->parent->xdg != NULL ? xdg->parent->xdg->geometry_x : 0;
		int32_t py = xdg->parent->xdg != NULL ? xdg->parent->xdg->geometry_y : 0;
		shell->callbacks.popup_mapped(shell->callbacks.context, surface->resource, xdg->parent->resource,
		                              px + x - xdg->geometry_x, py + y - xdg->geometry_y, width, height);
	}
}

/* MARK: wl_surface */

static void surface_attach(struct wl_client *client, struct wl_resource *resource, struct wl_resource *buffer, int32_t x, int32_t y) {
	(void)client, (void)x, (void)y;
	struct own_surface *surface = wl_resource_get_user_data(resource);
	surface->buffer_attached = true;
	surface->pending_buffer = buffer;
}

static void surface_damage(struct wl_client *client, struct wl_resource *resource, int32_t x, int32_t y, int32_t w, int32_t h) {
	(void)client, (void)resource, (void)x, (void)y, (void)w, (void)h;
}

static void surface_frame(struct wl_client *client, struct wl_resource *resource, uint32_t id) {
	struct own_surface *surface = wl_resource_get_user_data(resource);
	struct wl_resource *callback = wl_resource_create(client, &wl_callback_interface, 1, id);
	if (callback == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(callback, NULL, NULL, callback_destroyed);
	wl_list_insert(surface->shell->frame_callbacks.prev, wl_resource_get_link(callback));
}

static void surface_set_opaque_region(struct wl_client *client, struct wl_resource *resource, struct wl_resource *region) {
	(void)client, (void)resource, (void)region;
}

static void surface_set_input_region(struct wl_client *client, struct wl_resource *resource, struct wl_resource *region) {
	(void)client;
	struct own_surface *surface = wl_resource_get_user_data(resource);
	struct own_rects *rects = region_of(region);
	surface->input_region_set = true;
	if (rects == NULL) {
		surface->pending_input.infinite = true;
		surface->pending_input.count = 0;
	} else {
		surface->pending_input = *rects;
		surface->pending_input.infinite = false;
	}
}

static void surface_commit(struct wl_client *client, struct wl_resource *resource) {
	(void)client;
	struct own_surface *surface = wl_resource_get_user_data(resource);
	surface->scale = surface->pending_scale;
	if (surface->input_region_set) {
		surface->input = surface->pending_input;
		surface->input_region_set = false;
	}
	if (surface->buffer_attached) {
		surface->buffer_attached = false;
		struct wl_resource *buffer = surface->pending_buffer;
		surface->pending_buffer = NULL;
		struct wl_shm_buffer *shm = buffer != NULL ? wl_shm_buffer_get(buffer) : NULL;
		surface->has_buffer = buffer != NULL;
		if (shm != NULL) {
			surface->buffer_width = wl_shm_buffer_get_width(shm);
			surface->buffer_height = wl_shm_buffer_get_height(shm);
		}
		if (buffer != NULL) {
			wl_buffer_send_release(buffer); /* nothing is drawn */
		}
	}
	bool was_mapped = surface->mapped;
	commit_xdg(surface);
	if (was_mapped && surface->mapped) {
		surface->shell->callbacks.committed(surface->shell->callbacks.context, resource, surface->buffer_width / surface->scale,
		                                    surface->buffer_height / surface->scale);
	}
}

static void surface_set_buffer_transform(struct wl_client *client, struct wl_resource *resource, int32_t transform) {
	(void)client, (void)resource, (void)transform;
}

static void surface_set_buffer_scale(struct wl_client *client, struct wl_resource *resource, int32_t scale) {
	(void)client;
	if (scale < 1) {
		wl_resource_post_error(resource, WL_SURFACE_ERROR_INVALID_SCALE, "scale %d", scale);
		return;
	}
	struct own_surface *surface = wl_resource_get_user_data(resource);
	surface->pending_scale = scale;
}

static void surface_damage_buffer(struct wl_client *client, struct wl_resource *resource, int32_t x, int32_t y, int32_t w, int32_t h) {
	(void)client, (void)resource, (void)x, (void)y, (void)w, (void)h;
}

static const struct wl_surface_interface surface_impl = {
	.destroy = destroy_resource,
	.attach = surface_attach,
	.damage = surface_damage,
	.frame = surface_frame,
	.set_opaque_region = surface_set_opaque_region,
	.set_input_region = surface_set_input_region,
	.commit = surface_commit,
	.set_buffer_transform = surface_set_buffer_transform,
	.set_buffer_scale = surface_set_buffer_scale,
	.damage_buffer = surface_damage_buffer,
};

static void surface_destroyed(struct wl_resource *resource) {
	struct own_surface *surface = wl_resource_get_user_data(resource);
	unmap(surface, true);
	if (surface->xdg != NULL) {
		surface->xdg->surface = NULL;
	}
	free(surface);
}

/* MARK: wl_compositor */

static void compositor_create_surface(struct wl_client *client, struct wl_resource *resource, uint32_t id) {
	struct own_surface *surface = calloc(1, sizeof *surface);
	struct wl_resource *r = surface == NULL ? NULL : wl_resource_create(client, &wl_surface_interface, wl_resource_get_version(resource), id);
	if (r == NULL) {
		free(surface);
		wl_client_post_no_memory(client);
		return;
	}
	surface->shell = wl_resource_get_user_data(resource);
	surface->resource = r;
	surface->scale = surface->pending_scale = 1;
	surface->input.infinite = true;
	wl_resource_set_implementation(r, &surface_impl, surface, surface_destroyed);
}

static void compositor_create_region(struct wl_client *client, struct wl_resource *resource, uint32_t id) {
	(void)resource;
	struct own_rects *region = calloc(1, sizeof *region);
	struct wl_resource *r = region == NULL ? NULL : wl_resource_create(client, &wl_region_interface, 1, id);
	if (r == NULL) {
		free(region);
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &region_impl, region, region_destroyed);
}

static const struct wl_compositor_interface compositor_impl = {
	.create_surface = compositor_create_surface,
	.create_region = compositor_create_region,
};

static void bind_compositor(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct wl_resource *r = wl_resource_create(client, &wl_compositor_interface, (int)version, id);
	if (r == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &compositor_impl, data, NULL);
}

bool own_shell_assign_cursor_role(struct wl_resource *resource) {
	struct own_surface *surface = surface_of(resource);
	if (surface == NULL) {
		return false;
	}
	if (surface->role != ROLE_NONE && surface->role != ROLE_CURSOR) {
		return false;
	}
	surface->role = ROLE_CURSOR;
	return true;
}

/* MARK: wl_subcompositor (foot needs it): the role is given, nothing is shown */

static void subsurface_set_position(struct wl_client *client, struct wl_resource *resource, int32_t x, int32_t y) {
	(void)client, (void)resource, (void)x, (void)y;
}

static void subsurface_place(struct wl_client *client, struct wl_resource *resource, struct wl_resource *sibling) {
	(void)client, (void)resource, (void)sibling;
}

static void subsurface_set_mode(struct wl_client *client, struct wl_resource *resource) { (void)client, (void)resource; }

static const struct wl_subsurface_interface subsurface_impl = {
	.destroy = destroy_resource,
	.set_position = subsurface_set_position,
	.place_above = subsurface_place,
	.place_below = subsurface_place,
	.set_sync = subsurface_set_mode,
	.set_desync = subsurface_set_mode,
};

static void subcompositor_get_subsurface(struct wl_client *client, struct wl_resource *resource, uint32_t id,
                                         struct wl_resource *surface_resource, struct wl_resource *parent) {
	(void)parent;
	struct own_surface *surface = surface_of(surface_resource);
	if (surface == NULL || (surface->role != ROLE_NONE && surface->role != ROLE_SUBSURFACE)) {
		wl_resource_post_error(resource, WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE, "the surface has another role");
		return;
	}
	surface->role = ROLE_SUBSURFACE;
	struct wl_resource *r = wl_resource_create(client, &wl_subsurface_interface, 1, id);
	if (r == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &subsurface_impl, NULL, NULL);
}

static const struct wl_subcompositor_interface subcompositor_impl = {
	.destroy = destroy_resource,
	.get_subsurface = subcompositor_get_subsurface,
};

static void bind_subcompositor(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct wl_resource *r = wl_resource_create(client, &wl_subcompositor_interface, (int)version, id);
	if (r == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &subcompositor_impl, data, NULL);
}

/* MARK: wl_output */

static void output_release(struct wl_client *client, struct wl_resource *resource) {
	(void)client;
	wl_resource_destroy(resource);
}

static const struct wl_output_interface output_impl = {.release = output_release};

static void output_destroyed(struct wl_resource *resource) { wl_list_remove(wl_resource_get_link(resource)); }

static void bind_output(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct own_shell *shell = data;
	struct wl_resource *r = wl_resource_create(client, &wl_output_interface, (int)version, id);
	if (r == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &output_impl, shell, output_destroyed);
	wl_list_insert(&shell->outputs, wl_resource_get_link(r));
	wl_output_send_geometry(r, 0, 0, 0, 0, WL_OUTPUT_SUBPIXEL_UNKNOWN, "SeatKit", "own-shell", WL_OUTPUT_TRANSFORM_NORMAL);
	wl_output_send_mode(r, WL_OUTPUT_MODE_CURRENT | WL_OUTPUT_MODE_PREFERRED, shell->width, shell->height, 60000);
	if (version >= WL_OUTPUT_SCALE_SINCE_VERSION) {
		wl_output_send_scale(r, shell->scale);
	}
	if (version >= WL_OUTPUT_DONE_SINCE_VERSION) {
		wl_output_send_done(r);
	}
}

int own_shell_output_resources(struct own_shell *shell, struct wl_client *client, struct wl_resource **out, int max) {
	int n = 0;
	struct wl_resource *r;
	wl_resource_for_each(r, &shell->outputs) {
		if (n < max && wl_resource_get_client(r) == client) {
			out[n++] = r;
		}
	}
	return n;
}

/* MARK: xdg_positioner */

static void positioner_set_size(struct wl_client *client, struct wl_resource *resource, int32_t w, int32_t h) {
	(void)client;
	struct own_positioner *p = wl_resource_get_user_data(resource);
	p->width = w;
	p->height = h;
}

static void positioner_set_anchor_rect(struct wl_client *client, struct wl_resource *resource, int32_t x, int32_t y, int32_t w, int32_t h) {
	(void)client;
	struct own_positioner *p = wl_resource_get_user_data(resource);
	p->anchor_x = x;
	p->anchor_y = y;
	p->anchor_width = w;
	p->anchor_height = h;
}

static void positioner_set_uint(struct wl_client *client, struct wl_resource *resource, uint32_t value) {
	(void)client, (void)resource, (void)value;
}

static void positioner_set_offset(struct wl_client *client, struct wl_resource *resource, int32_t x, int32_t y) {
	(void)client;
	struct own_positioner *p = wl_resource_get_user_data(resource);
	p->offset_x = x;
	p->offset_y = y;
}

static void positioner_set_reactive(struct wl_client *client, struct wl_resource *resource) { (void)client, (void)resource; }

static void positioner_set_parent_size(struct wl_client *client, struct wl_resource *resource, int32_t w, int32_t h) {
	(void)client, (void)resource, (void)w, (void)h;
}

static const struct xdg_positioner_interface positioner_impl = {
	.destroy = destroy_resource,
	.set_size = positioner_set_size,
	.set_anchor_rect = positioner_set_anchor_rect,
	.set_anchor = positioner_set_uint,
	.set_gravity = positioner_set_uint,
	.set_constraint_adjustment = positioner_set_uint,
	.set_offset = positioner_set_offset,
	.set_reactive = positioner_set_reactive,
	.set_parent_size = positioner_set_parent_size,
	.set_parent_configure = positioner_set_uint,
};

static void positioner_destroyed(struct wl_resource *resource) { free(wl_resource_get_user_data(resource)); }

/* MARK: xdg_toplevel and xdg_popup */

static void toplevel_set_parent(struct wl_client *client, struct wl_resource *resource, struct wl_resource *parent) {
	(void)client, (void)resource, (void)parent;
}

static void toplevel_set_string(struct wl_client *client, struct wl_resource *resource, const char *value) {
	(void)client, (void)resource, (void)value;
}

static void toplevel_set_app_id(struct wl_client *client, struct wl_resource *resource, const char *app_id) {
	(void)client;
	struct own_xdg_surface *xdg = wl_resource_get_user_data(resource);
	if (xdg != NULL) {
		strncpy(xdg->app_id, app_id, sizeof xdg->app_id - 1);
	}
}

static void toplevel_show_window_menu(struct wl_client *client, struct wl_resource *resource, struct wl_resource *seat,
                                      uint32_t serial, int32_t x, int32_t y) {
	(void)client, (void)resource, (void)seat, (void)serial, (void)x, (void)y;
}

static void toplevel_move(struct wl_client *client, struct wl_resource *resource, struct wl_resource *seat, uint32_t serial) {
	(void)client, (void)resource, (void)seat, (void)serial;
}

static void toplevel_resize(struct wl_client *client, struct wl_resource *resource, struct wl_resource *seat, uint32_t serial,
                            uint32_t edges) {
	(void)client, (void)resource, (void)seat, (void)serial, (void)edges;
}

static void toplevel_set_size(struct wl_client *client, struct wl_resource *resource, int32_t w, int32_t h) {
	(void)client, (void)resource, (void)w, (void)h;
}

static void toplevel_no_argument(struct wl_client *client, struct wl_resource *resource) { (void)client, (void)resource; }

static void toplevel_set_fullscreen(struct wl_client *client, struct wl_resource *resource, struct wl_resource *output) {
	(void)client, (void)resource, (void)output;
}

static const struct xdg_toplevel_interface toplevel_impl = {
	.destroy = destroy_resource,
	.set_parent = toplevel_set_parent,
	.set_title = toplevel_set_string,
	.set_app_id = toplevel_set_app_id,
	.show_window_menu = toplevel_show_window_menu,
	.move = toplevel_move,
	.resize = toplevel_resize,
	.set_max_size = toplevel_set_size,
	.set_min_size = toplevel_set_size,
	.set_maximized = toplevel_no_argument,
	.unset_maximized = toplevel_no_argument,
	.set_fullscreen = toplevel_set_fullscreen,
	.unset_fullscreen = toplevel_no_argument,
	.set_minimized = toplevel_no_argument,
};

static void role_object_destroyed(struct wl_resource *resource) {
	struct own_xdg_surface *xdg = wl_resource_get_user_data(resource);
	if (xdg == NULL) {
		return;
	}
	if (xdg->surface != NULL) {
		unmap(xdg->surface, false);
	}
	if (xdg->toplevel == resource) {
		xdg->toplevel = NULL;
	}
	if (xdg->popup == resource) {
		xdg->popup = NULL;
	}
	xdg->configured = false;
	xdg->acked = false;
}

static void popup_grab(struct wl_client *client, struct wl_resource *resource, struct wl_resource *seat, uint32_t serial) {
	(void)client, (void)resource, (void)seat, (void)serial;
}

static void popup_reposition(struct wl_client *client, struct wl_resource *resource, struct wl_resource *positioner, uint32_t token) {
	(void)client, (void)resource, (void)positioner, (void)token;
}

static const struct xdg_popup_interface popup_impl = {
	.destroy = destroy_resource,
	.grab = popup_grab,
	.reposition = popup_reposition,
};

/* MARK: xdg_surface */

static bool give_role(struct own_xdg_surface *xdg, enum own_role role) {
	if (xdg->surface == NULL || xdg->toplevel != NULL || xdg->popup != NULL ||
	    (xdg->surface->role != ROLE_NONE && xdg->surface->role != role)) {
		wl_resource_post_error(xdg->resource, XDG_SURFACE_ERROR_ALREADY_CONSTRUCTED, "the surface has a role");
		return false;
	}
	xdg->surface->role = role;
	return true;
}

static void xdg_surface_get_toplevel(struct wl_client *client, struct wl_resource *resource, uint32_t id) {
	struct own_xdg_surface *xdg = wl_resource_get_user_data(resource);
	if (!give_role(xdg, ROLE_TOPLEVEL)) {
		return;
	}
	struct wl_resource *r = wl_resource_create(client, &xdg_toplevel_interface, wl_resource_get_version(resource), id);
	if (r == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &toplevel_impl, xdg, role_object_destroyed);
	xdg->toplevel = r;
}

static void xdg_surface_get_popup(struct wl_client *client, struct wl_resource *resource, uint32_t id, struct wl_resource *parent,
                                  struct wl_resource *positioner) {
	struct own_xdg_surface *xdg = wl_resource_get_user_data(resource);
	if (!give_role(xdg, ROLE_POPUP)) {
		return;
	}
	struct wl_resource *r = wl_resource_create(client, &xdg_popup_interface, wl_resource_get_version(resource), id);
	if (r == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &popup_impl, xdg, role_object_destroyed);
	xdg->popup = r;
	struct own_xdg_surface *parent_xdg = parent != NULL ? wl_resource_get_user_data(parent) : NULL;
	xdg->parent = parent_xdg != NULL ? parent_xdg->surface : NULL;
	struct own_positioner *p = wl_resource_get_user_data(positioner);
	if (p != NULL) {
		xdg->placement = *p;
	}
}

static void xdg_surface_set_window_geometry(struct wl_client *client, struct wl_resource *resource, int32_t x, int32_t y, int32_t w,
                                            int32_t h) {
	(void)client, (void)w, (void)h;
	struct own_xdg_surface *xdg = wl_resource_get_user_data(resource);
	xdg->geometry_x = x;
	xdg->geometry_y = y;
}

static void xdg_surface_ack_configure(struct wl_client *client, struct wl_resource *resource, uint32_t serial) {
	(void)client, (void)serial;
	struct own_xdg_surface *xdg = wl_resource_get_user_data(resource);
	xdg->acked = true;
}

static const struct xdg_surface_interface xdg_surface_impl = {
	.destroy = destroy_resource,
	.get_toplevel = xdg_surface_get_toplevel,
	.get_popup = xdg_surface_get_popup,
	.set_window_geometry = xdg_surface_set_window_geometry,
	.ack_configure = xdg_surface_ack_configure,
};

static void xdg_surface_destroyed(struct wl_resource *resource) {
	struct own_xdg_surface *xdg = wl_resource_get_user_data(resource);
	if (xdg->surface != NULL) {
		unmap(xdg->surface, false);
		xdg->surface->xdg = NULL;
	}
	/* Its role objects are destroyed first by well-behaved clients; any left point here no more. */
	if (xdg->toplevel != NULL) {
		wl_resource_set_user_data(xdg->toplevel, NULL);
	}
	if (xdg->popup != NULL) {
		wl_resource_set_user_data(xdg->popup, NULL);
	}
	free(xdg);
}

/* MARK: xdg_wm_base */

static void wm_base_create_positioner(struct wl_client *client, struct wl_resource *resource, uint32_t id) {
	struct own_positioner *p = calloc(1, sizeof *p);
	struct wl_resource *r = p == NULL ? NULL : wl_resource_create(client, &xdg_positioner_interface, wl_resource_get_version(resource), id);
	if (r == NULL) {
		free(p);
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &positioner_impl, p, positioner_destroyed);
}

static void wm_base_get_xdg_surface(struct wl_client *client, struct wl_resource *resource, uint32_t id, struct wl_resource *surface_resource) {
	struct own_surface *surface = surface_of(surface_resource);
	if (surface == NULL || surface->xdg != NULL) {
		wl_resource_post_error(resource, XDG_WM_BASE_ERROR_ROLE, "not a fresh wl_surface of this compositor");
		return;
	}
	struct own_xdg_surface *xdg = calloc(1, sizeof *xdg);
	struct wl_resource *r = xdg == NULL ? NULL : wl_resource_create(client, &xdg_surface_interface, wl_resource_get_version(resource), id);
	if (r == NULL) {
		free(xdg);
		wl_client_post_no_memory(client);
		return;
	}
	xdg->surface = surface;
	xdg->resource = r;
	surface->xdg = xdg;
	wl_resource_set_implementation(r, &xdg_surface_impl, xdg, xdg_surface_destroyed);
}

static void wm_base_pong(struct wl_client *client, struct wl_resource *resource, uint32_t serial) {
	(void)client, (void)resource, (void)serial;
}

static const struct xdg_wm_base_interface wm_base_impl = {
	.destroy = destroy_resource,
	.create_positioner = wm_base_create_positioner,
	.get_xdg_surface = wm_base_get_xdg_surface,
	.pong = wm_base_pong,
};

static void bind_wm_base(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct wl_resource *r = wl_resource_create(client, &xdg_wm_base_interface, (int)version, id);
	if (r == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(r, &wm_base_impl, data, NULL);
}

/* MARK: the shell */

struct own_shell *own_shell_create(struct wl_display *display, const struct own_shell_callbacks *callbacks, int32_t width,
                                   int32_t height, int32_t scale) {
	struct own_shell *shell = calloc(1, sizeof *shell);
	if (shell == NULL) {
		return NULL;
	}
	shell->display = display;
	shell->callbacks = *callbacks;
	shell->width = width;
	shell->height = height;
	shell->scale = scale;
	wl_list_init(&shell->outputs);
	wl_list_init(&shell->frame_callbacks);
	if (wl_display_init_shm(display) != 0 || wl_global_create(display, &wl_compositor_interface, 4, shell, bind_compositor) == NULL ||
	    wl_global_create(display, &wl_subcompositor_interface, 1, shell, bind_subcompositor) == NULL ||
	    wl_global_create(display, &xdg_wm_base_interface, 3, shell, bind_wm_base) == NULL ||
	    wl_global_create(display, &wl_output_interface, 3, shell, bind_output) == NULL) {
		free(shell);
		return NULL;
	}
	shell->frame_timer = wl_event_loop_add_timer(wl_display_get_event_loop(display), answer_frame_callbacks, shell);
	if (shell->frame_timer != NULL) {
		wl_event_source_timer_update(shell->frame_timer, 16);
	}
	return shell;
}

const char *own_xdg_wm_base_name(void) { return xdg_wm_base_interface.name; }
