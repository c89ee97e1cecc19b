/*
 * A test program's replay from C, built only from the installed headers and
 * seatkit-replay.pc: a `libinput record` file through real libinput under umockdev, played
 * into a router on a virtual clock. Prints the number of events, the touches the surface got
 * and "finished"; CProgramTests runs it plainly and under valgrind.
 *   replay FILE [WORKER]   (no WORKER: the installed bin/seatkit beside the library)
 */
#include <seatkit/seatkit.h>
#include <seatkit/seatkit-replay.h>
#include <stdio.h>

static int began, ended;

static enum seatkit_result touches_began(void *data, const struct seatkit_touch_event *event,
		const struct seatkit_event_context *context) {
	(void)data; (void)context;
	began += (int)event->touch_count;
	return SEATKIT_HANDLED;
}

static enum seatkit_result touches_ended(void *data, const struct seatkit_touch_event *event,
		const struct seatkit_event_context *context) {
	(void)data; (void)context;
	ended += (int)event->touch_count;
	return SEATKIT_HANDLED;
}

static const struct seatkit_responder_interface counting = {
	.struct_size = sizeof(struct seatkit_responder_interface),
	.touches_began = touches_began,
	.touches_ended = touches_ended,
};

static void finished(void *data, struct seatkit_replay *replay) {
	(void)replay;
	*(int *)data = 1;
}

int main(int argc, char **argv) {
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE [WORKER]\n", argv[0]);
		return 2;
	}
	struct seatkit_router *router = seatkit_router_create_virtual(0);
	struct seatkit_output *output = seatkit_output_create(router, "DSI-1", 0, 0, 800, 480,
		SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1);
	seatkit_output_set_responder(output, &counting, NULL);
	struct seatkit_replay *replay = seatkit_replay_create(router, argv[1], argc > 2 ? argv[2] : NULL);
	if (replay == NULL) {
		printf("no replay\n");
		return 1;
	}
	seatkit_replay_add_devices(replay);
	printf("events %zu\n", seatkit_replay_get_event_count(replay));
	int done = 0;
	seatkit_replay_play(replay, finished, &done);
	for (int64_t t = 0; !done && t < 60 * 1000000; t += 10000) {
		seatkit_router_advance_clock(router, t);
	}
	printf("touches began %d ended %d\n", began, ended);
	printf("%s\n", done ? "finished" : "not finished");
	seatkit_replay_destroy(replay);
	seatkit_router_destroy(router);
	return done && began > 0 && began == ended ? 0 : 1;
}
