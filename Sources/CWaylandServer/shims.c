#define _GNU_SOURCE
#include "CWaylandServer.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

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

int seatkit_create_sealed_file(const char *name, const void *data, size_t size) {
	int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0) return -1;
	const char *bytes = data;
	size_t written = 0;
	while (written < size) {
		ssize_t n = write(fd, bytes + written, size - written);
		if (n < 0 && errno == EINTR) continue;
		if (n <= 0) { int e = errno; close(fd); errno = e; return -1; }
		written += (size_t)n;
	}
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) < 0) {
		int e = errno; close(fd); errno = e; return -1;
	}
	return fd;
}
