#define _GNU_SOURCE
#include "CWaylandServer.h"
#include <stdlib.h>

void seatkit_resource_post_error(struct wl_resource *resource, uint32_t code, const char *message) {
	wl_resource_post_error(resource, code, "%s", message);
}

struct client_destroy_watch {
	struct wl_listener listener;
	void (*notify)(void *data);
	void *data;
};

static void client_destroyed(struct wl_listener *listener, void *client) {
	(void)client;
	struct client_destroy_watch *watch = wl_container_of(listener, watch, listener);
	wl_list_remove(&watch->listener.link);
	watch->notify(watch->data);
	free(watch);
}

void seatkit_client_on_destroy(struct wl_client *client, void (*notify)(void *data), void *data) {
	struct client_destroy_watch *watch = calloc(1, sizeof *watch);
	if (!watch) abort();
	watch->notify = notify;
	watch->data = data;
	watch->listener.notify = client_destroyed;
	wl_client_add_destroy_listener(client, &watch->listener);
}

struct resource_destroy_watch {
	struct wl_listener listener;
	void (*notify)(void *data);
	void *data;
};

static void resource_destroyed(struct wl_listener *listener, void *resource) {
	(void)resource;
	struct resource_destroy_watch *watch = wl_container_of(listener, watch, listener);
	wl_list_remove(&watch->listener.link);
	watch->notify(watch->data);
	free(watch);
}

void seatkit_resource_on_destroy(struct wl_resource *resource, void (*notify)(void *data), void *data) {
	struct resource_destroy_watch *watch = calloc(1, sizeof *watch);
	if (!watch) abort();
	watch->notify = notify;
	watch->data = data;
	watch->listener.notify = resource_destroyed;
	wl_resource_add_destroy_listener(resource, &watch->listener);
}
