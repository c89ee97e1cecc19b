/* The wlroots bridge's touch motions and wlr_seat.last_event: a compositor (a display, wlroots'
 * compositor and seat, SeatKit's router on the display's loop and the bridge) and its client
 * (wayland-client on the other end of a socketpair, bound to wl_touch, one wl_surface the
 * bridge delivers to) in one process, the two ends pumped in turn. A finger goes down, moves
 * twice and lifts through seatkit_router_notify_touch_*; after each step the program prints
 * what the client got and whether the seat's last_event is the motion's own time.
 * WlrootsTouchTimeTests reads the lines. */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <seatkit/seatkit.h>
#include <seatkit/seatkit-delivery.h>
#include <seatkit/seatkit-wlroots.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <wayland-client.h>
#include <wayland-server-core.h>
#include <wlr/render/pixman.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_seat.h>

static struct {
	struct wl_compositor *compositor;
	struct wl_seat *seat;
	struct wl_touch *touch;
	int downs, motions, ups, frames;
	double last_x, last_y;
} client;

static struct wlr_surface *server_surface;

static void touch_down(void *data, struct wl_touch *t, uint32_t serial, uint32_t time, struct wl_surface *s,
		int32_t id, wl_fixed_t x, wl_fixed_t y) {
	(void)data, (void)t, (void)serial, (void)time, (void)s, (void)id, (void)x, (void)y;
	client.downs++;
}
static void touch_up(void *data, struct wl_touch *t, uint32_t serial, uint32_t time, int32_t id) {
	(void)data, (void)t, (void)serial, (void)time, (void)id;
	client.ups++;
}
static void touch_motion(void *data, struct wl_touch *t, uint32_t time, int32_t id, wl_fixed_t x, wl_fixed_t y) {
	(void)data, (void)t, (void)time, (void)id;
	client.motions++;
	client.last_x = wl_fixed_to_double(x);
	client.last_y = wl_fixed_to_double(y);
}
static void touch_frame(void *data, struct wl_touch *t) {
	(void)data, (void)t;
	client.frames++;
}
static void touch_cancel(void *data, struct wl_touch *t) {
	(void)data, (void)t;
}
static const struct wl_touch_listener touch_listener = {
	.down = touch_down, .up = touch_up, .motion = touch_motion, .frame = touch_frame, .cancel = touch_cancel,
};

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
	(void)data, (void)version;
	if (strcmp(interface, wl_compositor_interface.name) == 0) {
		client.compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	} else if (strcmp(interface, wl_seat_interface.name) == 0) {
		client.seat = wl_registry_bind(registry, name, &wl_seat_interface, 5);
	}
}
static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
	(void)data, (void)registry, (void)name;
}
static const struct wl_registry_listener registry_listener = { .global = global, .global_remove = global_remove };

static void new_surface(struct wl_listener *listener, void *data) {
	(void)listener;
	server_surface = data;
}

/* Both ends in turn until neither has anything left to read. */
static void pump(struct wl_display *display, struct wl_display *remote) {
	struct wl_event_loop *loop = wl_display_get_event_loop(display);
	for (int round = 0; round < 20; round++) {
		wl_display_flush(remote);
		wl_event_loop_dispatch(loop, 0);
		wl_display_flush_clients(display);
		while (wl_display_prepare_read(remote) != 0) {
			wl_display_dispatch_pending(remote);
		}
		struct pollfd fd = { .fd = wl_display_get_fd(remote), .events = POLLIN };
		if (poll(&fd, 1, 0) > 0) {
			wl_display_read_events(remote);
		} else {
			wl_display_cancel_read(remote);
		}
		wl_display_dispatch_pending(remote);
	}
}

static int64_t now_usec(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int64_t usec_of(struct timespec ts) {
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int main(int argc, char **argv) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct wl_display *display = wl_display_create();
	struct seatkit_router *router = seatkit_router_create(wl_display_get_event_loop(display));
	struct seatkit_output *output = seatkit_output_create(router, "OUT-1", 0, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1);
	struct wlr_renderer *renderer = wlr_pixman_renderer_create();
	struct wlr_compositor *compositor = renderer ? wlr_compositor_create(display, renderer) : NULL;
	/* With "second-bridge": another seat's bridge on the router first, which takes the
	 * router's touch-frame callback; the bridge under test hears frames on the signal. */
	if (argc > 1 && strcmp(argv[1], "second-bridge") == 0) {
		struct wlr_seat *first_seat = wlr_seat_create(display, "seat1");
		if (!first_seat || !seatkit_wlr_seat_create(router, first_seat, NULL)) {
			fprintf(stderr, "first bridge setup failed\n");
			return 1;
		}
		printf("first bridge has the callback: %s\n", seatkit_router_get_touch_frame_callback(router, NULL) ? "yes" : "no");
	}
	struct wlr_seat *seat = wlr_seat_create(display, "seat0");
	struct seatkit_wlr_seat *bridge = seatkit_wlr_seat_create(router, seat, NULL);
	int sv[2];
	if (!display || !router || !output || !compositor || !seat || !bridge || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		fprintf(stderr, "setup failed\n");
		return 1;
	}
	seatkit_wlr_seat_set_capabilities(bridge, SEATKIT_DEVICE_TOUCH);
	struct wl_listener surface_made = { .notify = new_surface };
	wl_signal_add(&compositor->events.new_surface, &surface_made);
	struct wl_client *server_client = wl_client_create(display, sv[0]);
	struct wl_display *remote = wl_display_connect_to_fd(sv[1]);
	if (!server_client || !remote) {
		fprintf(stderr, "client setup failed\n");
		return 1;
	}
	struct wl_registry *registry = wl_display_get_registry(remote);
	wl_registry_add_listener(registry, &registry_listener, NULL);
	pump(display, remote);
	if (!client.compositor || !client.seat) {
		fprintf(stderr, "globals missing\n");
		return 1;
	}
	client.touch = wl_seat_get_touch(client.seat);
	wl_touch_add_listener(client.touch, &touch_listener, NULL);
	struct wl_surface *surface = wl_compositor_create_surface(client.compositor);
	pump(display, remote);
	if (!server_surface) {
		fprintf(stderr, "no wlr_surface\n");
		return 1;
	}
	struct seatkit_surface *app = seatkit_surface_create(router, "app", 0, 0, 800, 600);
	seatkit_surface_add_child(seatkit_output_get_root(output), app);
	seatkit_wlr_seat_attach_surface(bridge, app, server_surface, 0);
	static const struct seatkit_device_info touchscreen = {
		.name = "touchscreen", .capabilities = SEATKIT_DEVICE_TOUCH,
	};
	seatkit_router_notify_device_added(router, now_usec(), 7, &touchscreen);

	/* The down: wlroots stamps last_event itself (its notify call reads the clock). */
	int64_t down = now_usec();
	seatkit_router_notify_touch_down(router, down, 7, 0, 100, 100);
	seatkit_router_notify_touch_frame(router, down, 7);
	pump(display, remote);
	printf("down: client downs %d frames %d, last_event not before the down: %s\n", client.downs, client.frames,
		usec_of(seat->last_event) >= down ? "yes" : "no");

	/* A motion: last_event is its time, to the microsecond (a clock read after it would be
	 * later, and would carry nanoseconds). */
	int64_t moved = now_usec();
	seatkit_router_notify_touch_motion(router, moved, 7, 0, 150, 120);
	seatkit_router_notify_touch_frame(router, moved, 7);
	pump(display, remote);
	printf("motion: client motions %d at %.1f,%.1f frames %d, last_event is the motion's time: %s\n", client.motions,
		client.last_x, client.last_y, client.frames,
		usec_of(seat->last_event) == moved && seat->last_event.tv_nsec % 1000 == 0 ? "yes" : "no");

	/* Later motions, each stamped with its own time to the microsecond: the bridge takes the
	 * second from its last stamp while a motion is in it (all three here, but for one that
	 * crosses into the next second, which it divides out). */
	bool stamped = true;
	for (int i = 0; i < 3; i++) {
		int64_t at = now_usec();
		seatkit_router_notify_touch_motion(router, at, 7, 0, 151 + i, 121 + i);
		seatkit_router_notify_touch_frame(router, at, 7);
		pump(display, remote);
		stamped = stamped && usec_of(seat->last_event) == at && seat->last_event.tv_nsec % 1000 == 0;
	}
	printf("later motions: client motions %d at %.1f,%.1f, last_event each one's time: %s\n", client.motions,
		client.last_x, client.last_y, stamped ? "yes" : "no");

	/* A motion whose time is older than the stamp (the router may hand it on as it came, or as
	 * its last time): the stamp does not go back. */
	seat->last_event.tv_sec += 1; /* as if wlroots had stamped a later event meanwhile */
	struct timespec later = seat->last_event;
	int64_t older = now_usec();
	seatkit_router_notify_touch_motion(router, older, 7, 0, 160, 130);
	seatkit_router_notify_touch_frame(router, older, 7);
	pump(display, remote);
	printf("older motion: client motions %d at %.1f,%.1f, last_event kept: %s\n", client.motions, client.last_x,
		client.last_y, seat->last_event.tv_sec == later.tv_sec && seat->last_event.tv_nsec == later.tv_nsec ? "yes" : "no");

	int64_t up = now_usec();
	seatkit_router_notify_touch_up(router, up, 7, 0);
	seatkit_router_notify_touch_frame(router, up, 7);
	pump(display, remote);
	printf("up: client ups %d frames %d\n", client.ups, client.frames);

	wl_surface_destroy(surface);
	wl_touch_destroy(client.touch);
	wl_registry_destroy(registry);
	wl_display_disconnect(remote);
	seatkit_router_destroy(router);
	wl_display_destroy_clients(display);
	wl_display_destroy(display);
	wlr_renderer_destroy(renderer);
	return 0;
}
