/*
 * What kiosk.c, popups.c and osk.c share: the kiosk, its apps (views), and what an
 * xdg_surface's `data` points to.
 */
#ifndef KIOSK_H
#define KIOSK_H

#include <seatkit/seatkit.h>
#include <seatkit/seatkit-replay.h> /* --replay: a test kiosk; production compositors do not link it */
#include <stdbool.h>
#include <sys/types.h>
#include <wayland-server-core.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <seatkit/seatkit-wlroots.h>

struct kiosk {
	struct wl_display *display;
	struct wlr_backend *backend;
	struct wlr_backend *headless; /* when running headless: where virtual devices come from */
	struct wlr_renderer *renderer;
	struct wlr_allocator *allocator;
	struct wlr_scene *scene;
	struct wlr_output_layout *output_layout;
	struct wlr_xdg_shell *xdg_shell;
	struct wlr_seat *wlr_seat;
	struct seatkit_wlr_seat *seat; /* SeatKit's bridge to wlr_seat */

	struct seatkit_router *router;
	/* The screen (kiosk.c): the last output connected, where the apps are fullscreen, and
	 * its SeatKit output (which stays, with the apps, while no output is left). */
	struct seatkit_output *output;
	struct wlr_output *wlr_output;
	struct wl_list outputs; /* every output, oldest first */
	/* --transform, --scale: for the output named (or every output: name ""). */
	struct output_rule {
		char name[64];
		int transform; /* enum wl_output_transform, or -1 */
		double scale; /* or 0 */
	} rules[16];
	int rule_count;
	bool ending; /* tearing down: outputs going are not replaced */
	struct view *current; /* the app shown */

	/* Kiosk behaviour (see the top of kiosk.c). */
	struct seatkit_kiosk_policy *wake, *cursor;
	struct seatkit_recognizer *switcher; /* enabled only while it has an app to switch to */
	bool session_hidden; /* lock.c: while the session is locked, no app switching */
	struct wl_event_source *idle;
	enum { CURSOR_AUTO, CURSOR_NEVER, CURSOR_ALWAYS } cursor_mode;
	int cursor_timeout_ms; /* 0: no timeout */
	struct wl_event_source *cursor_timer;
	bool cursor_touch_hidden, cursor_idle_hidden;
	int blank_after_ms;
	bool start_blanked;
	int dim_after_ms; /* --dim-after (idle.c); 0: no dim step */
	struct kiosk_idle *idle_state; /* idle.c: ext-idle-notify-v1, inhibitors, dimming */
	struct kiosk_lock *lock_state; /* lock.c: ext-session-lock-v1 */
	/* Accessibility filters (--sticky-keys ... --locate-pointer): delays in milliseconds,
	 * 0 for a filter that is off. */
	struct {
		bool sticky_keys, mouse_keys, locate_pointer;
		int slow_keys_ms, bounce_keys_ms, touch_hold_ms, touch_ignore_repeat_ms;
		int secondary_click_ms, dwell_click_ms;
	} a11y;
	/* --ignore-device NAME: input devices never given to SeatKit (by their kernel name). */
	const char *ignored_devices[16];
	int ignored_device_count;
	bool no_pointer; /* --no-pointer: a touch-only seat */
	/* --map-tablet OUTPUT, --tablet-region X,Y,W,H, --tablet-rotate DEG: where every tablet's
	 * area goes, set for each tablet (by its name) as SeatKit announces it. */
	struct {
		bool set, has_region;
		char output[64]; /* "": the tablet's own (udev WL_OUTPUT), else the first */
		double region[4];
		int rotation;
	} tablet;
	/* --map-touch DEVICE=OUTPUT, --calibrate DEVICE=MATRIX (config.c): given to the router's
	 * device mapping, which places every absolute point (SeatKit's libinput, a replay, or
	 * wlroots' devices through the bridge). */
	struct device_rule {
		char device[64];
		char output[64]; /* "": the device's own (udev WL_OUTPUT) */
		double calibration[6];
		bool calibrated;
	} device_rules[16];
	int device_rule_count;
	int width, height; /* the screen's logical size (extend: the first output's) */
	/* Where apps are laid out, in layout space: the screen, or (--outputs extend) the box
	 * around every output. */
	int app_x, app_y, app_width, app_height;
	bool extend;
	struct wl_listener layout_change;
	struct wl_list views;

	/* The app the kiosk started (-- APP ARGS...), while it runs; its exit status once it
	 * has exited; the signal that ended the kiosk. */
	pid_t app_pid;
	int app_status;
	int signalled;
	/* --long-press app: in an app that binds wl_touch, its own long press wins. */
	bool app_long_press;

	struct seatkit_replay *replay;
	int windows_before_replay;
	int mapped;

	struct wl_listener new_output, new_input, new_xdg_surface, new_virtual_keyboard;
	struct wl_listener new_xdg_decoration;
	struct wl_listener new_virtual_pointer, request_activate;
	struct wlr_idle_inhibit_manager_v1 *idle_inhibit;

	/* --osk auto (osk.c): KWin's rule, the panels above the apps (the on-screen keyboard)
	 * shown only while a text field has focus that it took after touch input. */
	bool osk_auto;
	bool osk_shown;
	bool last_input_touch; /* the last touch, button or key was a touch */
	/* --osk-resize: while the keyboard is shown, apps are configured this much shorter
	 * (the height of the panels at the bottom), above it. */
	bool osk_resize;
	int osk_reserved;
	struct wl_listener new_layer_surface; /* osk.c */
	/* Whose panels are on-screen keyboards (osk.c): clients with a virtual keyboard. */
	struct wlr_virtual_keyboard_manager_v1 *virtual_keyboards;
	struct wl_list panels; /* osk.c: layer-shell surfaces (an on-screen keyboard) */
	struct osk_relay *relay; /* osk.c: text-input-v3 <-> input-method-v2 */

	/* --touch-spots (spots.c): a circle under each touch. */
	bool touch_spots;
	struct kiosk_spots *spots;
};

/* What every xdg_surface's `data` points to, so a popup finds its parent's scene node (to
 * draw above it) and SeatKit surfaces (to be their child). */
struct kiosk_xdg {
	struct wlr_scene_node *node;
	struct seatkit_surface *surface; /* NULL while unmapped */
	/* --outputs extend: the same wl_surface's SeatKit surfaces on the other outputs (an
	 * app's slices, a popup's parts there), in the same surface-local space. */
	struct seatkit_surface *parts[7];
	int part_count;
};

struct view {
	struct kiosk_xdg xdg; /* first: xdg_surface->data */
	struct wl_list link;
	struct kiosk *kiosk;
	struct wlr_xdg_surface *xdg_surface;
	struct seatkit_surface *surface; /* SeatKit's surface for the app: its wl_surface, where drawn */
	/* What the surface was last given (set again only when it changes). */
	struct seatkit_rect frame;
	struct seatkit_rect input[16];
	size_t input_count;
	/* The kiosk's long press (a secondary click), held back touches; disabled for an app
	 * with wl_touch under --long-press app. */
	struct seatkit_recognizer *long_press;
	bool long_press_enabled;
	/* --outputs extend: the app's part on each other output, a SeatKit surface there
	 * delivering to the same wl_surface (same surface-local space), never focusable. */
	struct view_slice {
		struct seatkit_output *output;
		struct seatkit_surface *surface;
		struct seatkit_recognizer *long_press;
	} slices[7];
	int slice_count;
	struct wl_listener map, unmap, destroy, commit;
};

/* kiosk.c */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Configures every app again (the space for apps changed: osk_reserved). */
void configure_apps(struct kiosk *k);
/* Where apps go (k->app_x, app_y, app_width, app_height, layout space): the screen, or with
 * --outputs extend the box around every output, less the panels' exclusive zones at its
 * edges; the apps are configured again if it changed ("apps at X,Y WxH"). */
void kiosk_arrange_apps(struct kiosk *k);

/* config.c: --config FILE (libinih). Each setting is handed to `apply` as a long option
 * (`--name=value`), or, for a line the file's own rules refuse, as a reason; `where` is
 * FILE:LINE. `apply` returns -1 to go on, else the kiosk's exit status. */
typedef int (*config_option_fn)(void *data, const char *where, const char *option, const char *error);
/* Reads the file: -1 when every setting was taken, else the exit status (2, told on stderr). */
int config_load(const char *path, config_option_fn apply, void *data);
/* The file --config names on the command line (before --), or NULL. */
const char *config_path(int argc, char *argv[]);
/* --map-touch (calibration false) or --calibrate (true): NULL, or what is wrong. */
const char *device_rule_add(struct kiosk *k, bool calibration, const char *text);
/* Gives the rules to the router (after it is created, before devices come). */
void device_rules_apply(struct kiosk *k);

/* kiosk.c: the app-switch swipe is on only with two apps or more (with one, a three-finger
 * swipe is the app's, and the recognizer costs no touch anything) and not while locked. */
void kiosk_update_switcher(struct kiosk *k);

/* kiosk.c: an output's transform or scale changed at run time: SeatKit's output and the
 * apps follow. */
void output_reconfigured(struct kiosk *k, struct wlr_output *output);

/* output-management.c: wlr-output-management (wlr-randr): rotation and scale at run time. */
void output_management_init(struct kiosk *k);
/* Before the output layout is destroyed. */
void output_management_fini(void);

/* popups.c: an xdg_popup becomes a SeatKit surface while mapped. */
void popup_create(struct kiosk *k, struct wlr_xdg_surface *xdg_surface);
/* Closes the popups of an app (popup_done) before its slices are made again. */
void popups_dismiss(struct wlr_xdg_surface *xdg_surface);

/* osk.c: layer-shell surfaces (an on-screen keyboard) and the text-input relay. */
void osk_init(struct kiosk *k);
/* After wl_display_destroy: frees the relay. */
void osk_fini(struct kiosk *k);
/* Puts the panels back above the apps (after an app is raised). */
void osk_raise(struct kiosk *k);
/* The screen changed (k->output, k->width, k->height): the panels move to it. */
void osk_screen_changed(struct kiosk *k);
/* Closes the panels on an output that is going away (layer-shell's `closed`). */
void osk_output_destroyed(struct kiosk *k, struct wlr_output *output);
/* What the shown panels on `output` that are not keyboards keep for themselves at each edge
 * (their exclusive zones, after their margins), in logical units: top, right, bottom, left. */
void osk_exclusive_insets(struct kiosk *k, struct wlr_output *output, int insets[4]);
/* Places again the panels whose exclusive zone is 0, which stay out of the other panels'
 * zones (after a zone changed). */
void osk_arrange_panels(struct kiosk *k);

/* kiosk.c, for the protocol files below: gives the app shown its focus back (after an
 * unlock); the SeatKit output an output's input is routed on, or NULL. */
void kiosk_refocus(struct kiosk *k);
struct seatkit_output *kiosk_seatkit_output(struct kiosk *k, struct wlr_output *output);


/* idle.c: ext-idle-notify-v1 (the bridge's, fed by a spy on SeatKit's router), idle
 * inhibitors on visible surfaces, --dim-after. */
void idle_init(struct kiosk *k);
void idle_fini(struct kiosk *k);
/* Whether an idle inhibitor on a visible surface holds idle off now. */
bool idle_inhibited(struct kiosk *k);
/* The screen went blank: the dim overlay goes. */
void idle_screen_blanked(struct kiosk *k);
/* Puts the dim overlay back above everything (after something was raised). */
void idle_raise(struct kiosk *k);
/* Someone used an input device (kiosk.c's spy): undims, and restarts the dim step's timer. */
void idle_activity(struct kiosk *k);

/* lock.c: ext-session-lock-v1 (the bridge's SeatKit grab of pointer, touch and keyboard),
 * with the kiosk's curtain and placement of lock surfaces. */
void lock_init(struct kiosk *k);
void lock_fini(struct kiosk *k);
bool lock_is_locked(struct kiosk *k);
/* Puts the curtain and the lock surfaces back above everything, while locked. */
void lock_raise(struct kiosk *k);

/* shape.c: cursor-shape-v1 (the bridge's) through the bridge's cursor. */
void shape_init(struct kiosk *k);

/* spots.c: --touch-spots, a circle drawn under each touch (a spy on the router). After the
 * router and the scene exist; spots_fini after the scene is destroyed. */
void spots_init(struct kiosk *k);
void spots_fini(struct kiosk *k);

#endif
