// wlcs_server_integration: wlcs's entry points, forwarded to the Swift implementation
// (Sources/SeatKitWLCS/WLCSServer.swift, @_cdecl functions declared below).
#include "CSeatKitWLCS.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <wayland-server-core.h>
#include <wayland-client-core.h>
#include <wlcs/display_server.h>
#include <wlcs/pointer.h>
#include <wlcs/touch.h>

// Implemented in Swift.
void *seatkit_wlcs_server_create(void);
void seatkit_wlcs_server_destroy(void *server);
void seatkit_wlcs_server_start(void *server);
void seatkit_wlcs_server_stop(void *server);
int seatkit_wlcs_server_create_client_socket(void *server);
void seatkit_wlcs_server_position(void *server, int client_fd, uint32_t surface_id, int x, int y);
void *seatkit_wlcs_pointer_create(void *server);
void seatkit_wlcs_pointer_move(void *pointer, double x, double y, int relative);
void seatkit_wlcs_pointer_button(void *pointer, int button, int pressed);
void seatkit_wlcs_pointer_destroy(void *pointer);
void *seatkit_wlcs_touch_create(void *server);
void seatkit_wlcs_touch_event(void *touch, int kind, double x, double y);
void seatkit_wlcs_touch_destroy(void *touch);

// What a client can bind: Seat(extensions: .all plus virtual keyboard, input method and virtual
// pointer), HeadlessShell with one output and issue 26's protocols, as examples/kiosk runs them.
// wlcs skips the tests of anything not listed. Tests/SeatKitWaylandTests/WLCSDescriptorTests.swift compares this
// list with the registry of a running server.
static const WlcsExtensionDescriptor extensions[] = {
    {"wl_compositor", 5},
    {"wl_subcompositor", 1},
    {"wl_shm", 1},
    {"wl_seat", 8},
    {"wl_output", 4},
    {"wl_data_device_manager", 3},
    {"zwp_primary_selection_device_manager_v1", 1},
    {"ext_session_lock_manager_v1", 1},
    {"ext_idle_notifier_v1", 1},
    {"zwp_idle_inhibit_manager_v1", 1},
    {"wp_cursor_shape_manager_v1", 1},
    {"zwlr_data_control_manager_v1", 2},
    {"xdg_activation_v1", 1},
    {"xdg_wm_base", 3},
    {"zxdg_decoration_manager_v1", 1},
    {"zxdg_output_manager_v1", 3},
    {"wp_viewporter", 1},
    {"wp_fractional_scale_manager_v1", 1},
    {"wp_presentation", 1},
    {"zwp_relative_pointer_manager_v1", 1},
    {"zwp_pointer_gestures_v1", 3},
    {"zwp_pointer_constraints_v1", 1},
    {"zwp_keyboard_shortcuts_inhibit_manager_v1", 1},
    {"zwp_virtual_keyboard_manager_v1", 1},
    {"zwp_text_input_manager_v3", 1},
    {"zwp_input_method_manager_v2", 1},
    {"zwlr_virtual_pointer_manager_v1", 2},
    {"zwp_tablet_manager_v2", 1},
    {"zwlr_layer_shell_v1", 4},
};

static const WlcsIntegrationDescriptor descriptor = {
    .version = 1,
    .num_extensions = sizeof extensions / sizeof extensions[0],
    .supported_extensions = extensions,
};

size_t seatkit_wlcs_extension_count(void) { return descriptor.num_extensions; }
const char *seatkit_wlcs_extension_name(size_t index) { return index < descriptor.num_extensions ? extensions[index].name : NULL; }
uint32_t seatkit_wlcs_extension_version(size_t index) { return index < descriptor.num_extensions ? extensions[index].version : 0; }

int seatkit_wlcs_wake_fd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

void seatkit_wlcs_log(const char *line) { fprintf(stderr, "seatkit-wlcs: %s\n", line); }

void *seatkit_wlcs_display_create(void) { return wl_display_create(); }

void seatkit_wlcs_display_destroy(void *display) {
    wl_display_destroy_clients(display);
    wl_display_destroy(display);
}

void *seatkit_wlcs_client_create(void *display, int fd) { return wl_client_create(display, fd); }

void *seatkit_wlcs_client_object(void *client, uint32_t id) { return wl_client_get_object(client, id); }

// The server and devices: wlcs's struct first, the Swift object after it.
struct server { WlcsDisplayServer base; void *swift; };
struct pointer { WlcsPointer base; void *swift; };
struct touch { WlcsTouch base; void *swift; };

static void *swift_of_server(WlcsDisplayServer *s) { return ((struct server *)s)->swift; }
static void *swift_of_pointer(WlcsPointer *p) { return ((struct pointer *)p)->swift; }
static void *swift_of_touch(WlcsTouch *t) { return ((struct touch *)t)->swift; }

static void pointer_move_absolute(WlcsPointer *p, wl_fixed_t x, wl_fixed_t y) {
    seatkit_wlcs_pointer_move(swift_of_pointer(p), wl_fixed_to_double(x), wl_fixed_to_double(y), 0);
}
static void pointer_move_relative(WlcsPointer *p, wl_fixed_t dx, wl_fixed_t dy) {
    seatkit_wlcs_pointer_move(swift_of_pointer(p), wl_fixed_to_double(dx), wl_fixed_to_double(dy), 1);
}
static void pointer_button_up(WlcsPointer *p, int button) { seatkit_wlcs_pointer_button(swift_of_pointer(p), button, 0); }
static void pointer_button_down(WlcsPointer *p, int button) { seatkit_wlcs_pointer_button(swift_of_pointer(p), button, 1); }
static void pointer_destroy(WlcsPointer *p) {
    seatkit_wlcs_pointer_destroy(swift_of_pointer(p));
    free(p);
}

// touch.h declares wl_fixed_t coordinates, but wlcs 1.5 passes whole pixels (its Touch
// helper hands its int arguments straight through; Mir's integration reads ints too).
static void touch_down(WlcsTouch *t, wl_fixed_t x, wl_fixed_t y) {
    seatkit_wlcs_touch_event(swift_of_touch(t), 0, (double)x, (double)y);
}
static void touch_move(WlcsTouch *t, wl_fixed_t x, wl_fixed_t y) {
    seatkit_wlcs_touch_event(swift_of_touch(t), 1, (double)x, (double)y);
}
static void touch_up(WlcsTouch *t) { seatkit_wlcs_touch_event(swift_of_touch(t), 2, 0, 0); }
static void touch_destroy(WlcsTouch *t) {
    seatkit_wlcs_touch_destroy(swift_of_touch(t));
    free(t);
}

static void server_start(WlcsDisplayServer *s) { seatkit_wlcs_server_start(swift_of_server(s)); }
static void server_stop(WlcsDisplayServer *s) { seatkit_wlcs_server_stop(swift_of_server(s)); }
static int server_create_client_socket(WlcsDisplayServer *s) { return seatkit_wlcs_server_create_client_socket(swift_of_server(s)); }

// wlcs hands over its client's wl_display and wl_surface: the connection is known by its fd
// (the one create_client_socket returned), the surface by its protocol id.
static void server_position_window_absolute(WlcsDisplayServer *s, struct wl_display *client, struct wl_surface *surface, int x, int y) {
    seatkit_wlcs_server_position(swift_of_server(s), wl_display_get_fd(client), wl_proxy_get_id((struct wl_proxy *)surface), x, y);
}

static WlcsPointer *server_create_pointer(WlcsDisplayServer *s) {
    struct pointer *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->base = (WlcsPointer){
        .version = 1,
        .move_absolute = pointer_move_absolute,
        .move_relative = pointer_move_relative,
        .button_up = pointer_button_up,
        .button_down = pointer_button_down,
        .destroy = pointer_destroy,
    };
    p->swift = seatkit_wlcs_pointer_create(swift_of_server(s));
    return &p->base;
}

static WlcsTouch *server_create_touch(WlcsDisplayServer *s) {
    struct touch *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->base = (WlcsTouch){
        .version = 1,
        .touch_down = touch_down,
        .touch_move = touch_move,
        .touch_up = touch_up,
        .destroy = touch_destroy,
    };
    t->swift = seatkit_wlcs_touch_create(swift_of_server(s));
    return &t->base;
}

static const WlcsIntegrationDescriptor *server_get_descriptor(const WlcsDisplayServer *s) {
    (void)s;
    return &descriptor;
}

static WlcsDisplayServer *create_server(int argc, const char **argv) {
    (void)argc;
    (void)argv;
    struct server *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->base = (WlcsDisplayServer){
        .version = 3,
        .start = server_start,
        .stop = server_stop,
        .create_client_socket = server_create_client_socket,
        .position_window_absolute = server_position_window_absolute,
        .create_pointer = server_create_pointer,
        .create_touch = server_create_touch,
        .get_descriptor = server_get_descriptor,
        .start_on_this_thread = NULL,
    };
    s->swift = seatkit_wlcs_server_create();
    return &s->base;
}

static void destroy_server(WlcsDisplayServer *s) {
    seatkit_wlcs_server_destroy(swift_of_server(s));
    free(s);
}

__attribute__((visibility("default")))
const WlcsServerIntegration wlcs_server_integration = {
    .version = 1,
    .create_server = create_server,
    .destroy_server = destroy_server,
};
