/* wlroots' own tablet and pad devices fed to SeatKit by the bridge (issue 27): a tablet and
 * a pad made by hand as wlroots' backends make them (wlr_tablet_init, wlr_tablet_pad_init,
 * wlr_input_device_init), given to seatkit_wlr_seat_add_input_device, and their signals
 * emitted with the events wlroots' libinput backend would send. Prints what SeatKit's
 * delegate and a surface's pen handlers get, one line each; WlrootsTabletDeviceTests
 * reads them.
 *
 * Layout: OUT-1 at (0,0) 1000x600 and OUT-2 at (1000,0) 800x600; the tablet says it belongs
 * to OUT-2 (as udev's WL_OUTPUT does through wlroots' output_name); a surface "canvas"
 * covers OUT-2. */
#define _POSIX_C_SOURCE 200809L
#include <seatkit/seatkit.h>
#include <seatkit/seatkit-wlroots.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-server-core.h>
#include <wlr/interfaces/wlr_input_device.h>
#include <wlr/interfaces/wlr_tablet_pad.h>
#include <wlr/interfaces/wlr_tablet_tool.h>
#include <wlr/types/wlr_seat.h>

static const char *phase_name(enum seatkit_pen_phase p) {
	static const char *names[] = { "proximity-in", "hover", "down", "moved", "up", "proximity-out" };
	return (unsigned)p < 6 ? names[p] : "?";
}

static void pen(const char *what, const struct seatkit_pen_event *e) {
	printf("%s %s at %.1f,%.1f (surface %.1f,%.1f) tool %d serial %llx caps 0x%x changed 0x%x pressure %.2f distance %.2f "
		"tilt %.1f,%.1f wheel %.1f\n", what, phase_name(e->phase), e->x, e->y, e->sx, e->sy, (int)e->tool_type,
		(unsigned long long)e->tool_serial, e->capabilities, e->changed, e->pressure, e->distance, e->tilt_x, e->tilt_y,
		e->wheel);
}

static void pen_entered(void *data, const struct seatkit_pen_event *e, const struct seatkit_event_context *c) {
	(void)data, (void)c;
	pen("canvas.pen_entered", e);
}

static void pen_left(void *data, const struct seatkit_pen_event *e, const struct seatkit_event_context *c) {
	(void)data, (void)c;
	pen("canvas.pen_left", e);
}

static enum seatkit_result pen_moved(void *data, const struct seatkit_pen_event *e, const struct seatkit_event_context *c) {
	(void)data, (void)c;
	pen("canvas.pen_moved", e);
	return SEATKIT_HANDLED;
}

static enum seatkit_result pen_down(void *data, const struct seatkit_pen_event *e, const struct seatkit_event_context *c) {
	(void)data, (void)c;
	pen("canvas.pen_down", e);
	return SEATKIT_HANDLED;
}

static enum seatkit_result pen_up(void *data, const struct seatkit_pen_event *e, const struct seatkit_event_context *c) {
	(void)data, (void)c;
	pen("canvas.pen_up", e);
	return SEATKIT_HANDLED;
}

static enum seatkit_result pen_button(void *data, const struct seatkit_pen_button_event *e, const struct seatkit_event_context *c) {
	(void)data, (void)c;
	printf("canvas.pen_button 0x%x %s at %.1f,%.1f tool %d\n", e->button, e->state == SEATKIT_BUTTON_PRESSED ? "pressed" : "released",
		e->x, e->y, (int)e->tool_type);
	return SEATKIT_HANDLED;
}

static void device_added(void *data, uint32_t device, const struct seatkit_device_info *info) {
	(void)data, (void)device;
	printf("device_added %s caps 0x%x output %s\n", info->name, info->capabilities,
		info->mapped_output ? info->mapped_output : "(none)");
}

static void device_removed(void *data, uint32_t device) {
	(void)data, (void)device;
	printf("device_removed\n");
}

static void pad_added(void *data, uint32_t device, const struct seatkit_pad_layout *layout) {
	(void)data, (void)device;
	printf("pad_added buttons %u rings %u strips %u groups %zu\n", layout->buttons, layout->rings, layout->strips,
		layout->group_count);
	for (size_t g = 0; g < layout->group_count; g++) {
		const struct seatkit_pad_group *group = &layout->groups[g];
		printf("  group %zu modes %u buttons", g, group->modes);
		for (size_t i = 0; i < group->button_count; i++) printf(" %u", group->buttons[i]);
		printf(" rings");
		for (size_t i = 0; i < group->ring_count; i++) printf(" %u", group->rings[i]);
		printf(" strips");
		for (size_t i = 0; i < group->strip_count; i++) printf(" %u", group->strips[i]);
		printf("\n");
	}
}

static void pad_event(void *data, const struct seatkit_pad_event *e) {
	(void)data;
	static const char *kinds[] = { "button", "ring", "strip", "key" };
	printf("pad_event %s %u value %.2f finger %d group %u mode %u\n", kinds[e->kind], e->index, e->value,
		e->from_finger, e->group, e->mode);
}

static void delivery(void *data, const char *line) {
	(void)data;
	printf("bridge: %s\n", line);
}

static uint32_t now_msec(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint32_t)((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct wl_display *display = wl_display_create();
	struct seatkit_router *router = seatkit_router_create(wl_display_get_event_loop(display));
	struct seatkit_output *out1 = seatkit_output_create(router, "OUT-1", 0, 0, 1000, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1);
	struct seatkit_output *out2 = seatkit_output_create(router, "OUT-2", 1000, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1);
	if (!display || !router || !out1 || !out2) {
		fprintf(stderr, "setup failed\n");
		return 1;
	}
	static const struct seatkit_responder_interface canvas_impl = {
		.struct_size = sizeof canvas_impl, .pen_entered = pen_entered, .pen_left = pen_left, .pen_moved = pen_moved,
		.pen_down = pen_down, .pen_up = pen_up, .pen_button = pen_button,
	};
	struct seatkit_surface *canvas = seatkit_surface_create(router, "canvas", 0, 0, 800, 600);
	seatkit_surface_set_responder(canvas, &canvas_impl, NULL);
	seatkit_surface_add_child(seatkit_output_get_root(out2), canvas);
	static const struct seatkit_delegate_interface delegate = {
		.struct_size = sizeof delegate, .device_added = device_added, .device_removed = device_removed,
		.pad_added = pad_added, .pad_event = pad_event,
	};
	seatkit_router_set_delegate(router, &delegate, NULL);

	struct wlr_seat *seat = wlr_seat_create(display, "seat0");
	struct seatkit_wlr_seat *bridge = seatkit_wlr_seat_create(router, seat, NULL);
	if (!seat || !bridge || !seatkit_wlr_seat_enable_tablets(bridge)) {
		fprintf(stderr, "bridge setup failed\n");
		return 1;
	}
	seatkit_wlr_seat_set_delivery_log(bridge, delivery, NULL);

	/* The tablet, as wlroots' libinput backend makes it. */
	struct wlr_tablet *tablet = calloc(1, sizeof *tablet);
	struct wlr_input_device *tablet_device = calloc(1, sizeof *tablet_device);
	wlr_tablet_init(tablet, NULL);
	wlr_input_device_init(tablet_device, WLR_INPUT_DEVICE_TABLET_TOOL, NULL, "Hand Tablet Pen", 0x56a, 0x357);
	tablet_device->tablet = tablet;
	tablet_device->output_name = strdup("OUT-2");
	printf("add tablet: %s\n", seatkit_wlr_seat_add_input_device(bridge, tablet_device) ? "yes" : "no");

	struct wlr_tablet_tool tool = { .type = WLR_TABLET_TOOL_TYPE_PEN, .hardware_serial = 0x5a5a,
		.pressure = true, .distance = true, .tilt = true };
	wl_signal_init(&tool.events.destroy);

	struct wlr_event_tablet_tool_proximity prox = { .device = tablet_device, .tool = &tool, .time_msec = now_msec(),
		.x = 0.25, .y = 0.5, .state = WLR_TABLET_TOOL_PROXIMITY_IN };
	wl_signal_emit(&tablet->events.proximity, &prox);
	struct wlr_event_tablet_tool_axis axis = { .device = tablet_device, .tool = &tool, .time_msec = now_msec(),
		.updated_axes = WLR_TABLET_TOOL_AXIS_DISTANCE | WLR_TABLET_TOOL_AXIS_TILT_X | WLR_TABLET_TOOL_AXIS_TILT_Y,
		.distance = 0.3, .tilt_x = 10, .tilt_y = -5 };
	wl_signal_emit(&tablet->events.axis, &axis);
	struct wlr_event_tablet_tool_tip tip = { .device = tablet_device, .tool = &tool, .time_msec = now_msec(),
		.x = 0.25, .y = 0.5, .state = WLR_TABLET_TOOL_TIP_DOWN };
	wl_signal_emit(&tablet->events.tip, &tip);
	/* Only x and the pressure changed: y, distance and tilt are the last ones. */
	axis = (struct wlr_event_tablet_tool_axis){ .device = tablet_device, .tool = &tool, .time_msec = now_msec(),
		.updated_axes = WLR_TABLET_TOOL_AXIS_X | WLR_TABLET_TOOL_AXIS_PRESSURE | WLR_TABLET_TOOL_AXIS_DISTANCE,
		.x = 0.5, .pressure = 0.6, .distance = 0 };
	wl_signal_emit(&tablet->events.axis, &axis);
	axis = (struct wlr_event_tablet_tool_axis){ .device = tablet_device, .tool = &tool, .time_msec = now_msec(),
		.updated_axes = WLR_TABLET_TOOL_AXIS_TILT_X, .tilt_x = 20 };
	wl_signal_emit(&tablet->events.axis, &axis);
	struct wlr_event_tablet_tool_button button = { .device = tablet_device, .tool = &tool, .time_msec = now_msec(),
		.button = 0x14b, .state = WLR_BUTTON_PRESSED };
	wl_signal_emit(&tablet->events.button, &button);
	tip = (struct wlr_event_tablet_tool_tip){ .device = tablet_device, .tool = &tool, .time_msec = now_msec(),
		.x = 0.5, .y = 0.5, .state = WLR_TABLET_TOOL_TIP_UP };
	wl_signal_emit(&tablet->events.tip, &tip);
	prox = (struct wlr_event_tablet_tool_proximity){ .device = tablet_device, .tool = &tool, .time_msec = now_msec(),
		.x = 0.5, .y = 0.5, .state = WLR_TABLET_TOOL_PROXIMITY_OUT };
	wl_signal_emit(&tablet->events.proximity, &prox);

	/* The pad: two mode groups, as libinput reports a pad libwacom knows. */
	struct wlr_tablet_pad *pad = calloc(1, sizeof *pad);
	struct wlr_input_device *pad_device = calloc(1, sizeof *pad_device);
	wlr_tablet_pad_init(pad, NULL);
	wlr_input_device_init(pad_device, WLR_INPUT_DEVICE_TABLET_PAD, NULL, "Hand Tablet Pad", 0x56a, 0x357);
	pad_device->tablet_pad = pad;
	pad->button_count = 4;
	pad->ring_count = 1;
	pad->strip_count = 1;
	struct wlr_tablet_pad_group *groups = calloc(2, sizeof *groups);
	static unsigned int buttons0[] = { 0, 1 }, buttons1[] = { 2, 3 }, ring0[] = { 0 }, strip0[] = { 0 };
	groups[0] = (struct wlr_tablet_pad_group){ .button_count = 2, .buttons = buttons0, .ring_count = 1, .rings = ring0,
		.mode_count = 4 };
	groups[1] = (struct wlr_tablet_pad_group){ .button_count = 2, .buttons = buttons1, .strip_count = 1, .strips = strip0,
		.mode_count = 2 };
	wl_list_insert(pad->groups.prev, &groups[0].link);
	wl_list_insert(pad->groups.prev, &groups[1].link);
	printf("add pad: %s\n", seatkit_wlr_seat_add_input_device(bridge, pad_device) ? "yes" : "no");
	struct wlr_event_tablet_pad_button pad_button = { .time_msec = now_msec(), .button = 1, .state = WLR_BUTTON_PRESSED,
		.mode = 2, .group = 0 };
	wl_signal_emit(&pad->events.button, &pad_button);
	struct wlr_event_tablet_pad_ring ring = { .time_msec = now_msec(), .source = WLR_TABLET_PAD_RING_SOURCE_FINGER,
		.ring = 0, .position = 90, .mode = 2 };
	wl_signal_emit(&pad->events.ring, &ring);
	struct wlr_event_tablet_pad_strip strip = { .time_msec = now_msec(), .source = WLR_TABLET_PAD_STRIP_SOURCE_UNKNOWN,
		.strip = 0, .position = 0.5, .mode = 1 };
	wl_signal_emit(&pad->events.strip, &strip);

	/* Unplugged: SeatKit is told (its pens leave proximity). */
	wl_list_init(&pad->groups); /* the groups are this program's, not wlroots' to free */
	free(groups);
	wlr_input_device_destroy(pad_device);
	wlr_input_device_destroy(tablet_device);
	seatkit_wlr_seat_destroy(bridge);
	wl_display_destroy(display);
	seatkit_router_destroy(router);
	printf("done\n");
	return 0;
}
