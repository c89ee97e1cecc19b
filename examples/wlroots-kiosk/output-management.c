/*
 * wlr-output-management (wlr-randr, kanshi): rotation and scale changed at run time, as
 * cage does it. A client's configuration is applied to each output (enabled outputs only:
 * the kiosk never turns its screen off this way), then the kiosk follows
 * (output_reconfigured: SeatKit's output takes the new transform and scale, the apps are
 * configured in the new logical size). Touch follows with nothing else: SeatKit's router
 * places every touch through its output's current transform.
 */
#include <stdlib.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_output_management_v1.h>
#include "kiosk.h"

struct output_management {
	struct kiosk *kiosk;
	struct wlr_output_manager_v1 *manager;
	struct wl_listener apply, test, layout_change;
};

static struct output_management management;

/* The current configuration, told to the clients: every output in the layout. */
static void send_configuration(struct kiosk *k) {
	struct wlr_output_configuration_v1 *config = wlr_output_configuration_v1_create();
	if (!config) {
		return;
	}
	struct wlr_output_layout_output *l_output;
	wl_list_for_each(l_output, &k->output_layout->outputs, link) {
		struct wlr_output_configuration_head_v1 *head = wlr_output_configuration_head_v1_create(config, l_output->output);
		if (head) {
			head->state.x = l_output->x;
			head->state.y = l_output->y;
		}
	}
	wlr_output_manager_v1_set_configuration(management.manager, config);
}

static void layout_change(struct wl_listener *listener, void *data) {
	send_configuration(management.kiosk);
}

/* Applies (or only tests) a client's configuration; every head is tried. */
static bool apply(struct kiosk *k, struct wlr_output_configuration_v1 *config, bool test_only) {
	bool ok = true;
	struct wlr_output_configuration_head_v1 *head;
	wl_list_for_each(head, &config->heads, link) {
		struct wlr_output *output = head->state.output;
		if (!head->state.enabled) {
			ok = false; /* the kiosk keeps its outputs on (idle blanking is its own) */
			continue;
		}
		if (head->state.mode) {
			wlr_output_set_mode(output, head->state.mode);
		}
		wlr_output_set_transform(output, head->state.transform);
		wlr_output_set_scale(output, head->state.scale);
		if (test_only) {
			ok = ok && wlr_output_test(output);
			wlr_output_rollback(output);
		} else if (wlr_output_commit(output)) {
			output_reconfigured(k, output);
		} else {
			ok = false;
		}
	}
	return ok;
}

static void handle(struct wlr_output_configuration_v1 *config, bool test_only) {
	struct kiosk *k = management.kiosk;
	if (apply(k, config, test_only)) {
		wlr_output_configuration_v1_send_succeeded(config);
	} else {
		wlr_output_configuration_v1_send_failed(config);
	}
	wlr_output_configuration_v1_destroy(config);
	if (!test_only) {
		send_configuration(k);
	}
}

static void handle_apply(struct wl_listener *listener, void *data) {
	handle(data, false);
}

static void handle_test(struct wl_listener *listener, void *data) {
	handle(data, true);
}

void output_management_init(struct kiosk *k) {
	management.kiosk = k;
	management.manager = wlr_output_manager_v1_create(k->display);
	management.apply.notify = handle_apply;
	wl_signal_add(&management.manager->events.apply, &management.apply);
	management.test.notify = handle_test;
	wl_signal_add(&management.manager->events.test, &management.test);
	management.layout_change.notify = layout_change;
	wl_signal_add(&k->output_layout->events.change, &management.layout_change);
}

void output_management_fini(void) {
	/* The manager went with the display; its listeners' lists with it. */
	wl_list_remove(&management.layout_change.link);
}
