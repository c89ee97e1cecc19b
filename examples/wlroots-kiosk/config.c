/*
 * The kiosk's configuration file (--config FILE), read with libinih, and the device rules
 * (--map-touch, --calibrate) it shares with the command line.
 *
 * Every command-line option is a setting: `name = value`, the long option's name without
 * its dashes; an option without a value takes true/false (yes/no, on/off, 1/0). Sections
 * name what a setting is for:
 *
 *   blank-after = 60000
 *   cursor = auto
 *   [output HDMI-A-1]          ; --transform HDMI-A-1=90, --scale HDMI-A-1=2
 *   transform = 90
 *   scale = 2
 *   [device ILITEK Touch]      ; --map-touch, --calibrate, --ignore-device for that device
 *   output = DSI-1
 *   calibration = 0 1 0 -1 0 1
 *   ignore = false
 *
 * Each setting is handed to the command line's own parser as `--name=value`, so a value is
 * checked once, with the same one-line reason; a bad line is refused as FILE:LINE: reason.
 * The file is read before the command line, so the command line wins (a later --transform
 * for an output replaces the file's; a rule repeated replaces the earlier one).
 */
#define _POSIX_C_SOURCE 200809L
#include "kiosk.h"
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct config_reader {
	FILE *file;
	int line; /* the line inih is on (its handler has no line number in Debian's build) */
	const char *path;
	config_option_fn apply;
	void *data;
	int status; /* -1 while going on */
	char where[512];
};

/* inih's reader: fgets, counting lines, so the handler knows where it is. */
static char *read_line(char *str, int num, void *stream) {
	struct config_reader *r = stream;
	char *line = fgets(str, num, r->file);
	if (line) {
		r->line++;
	}
	return line;
}

static int is_true(const char *v) {
	return strcasecmp(v, "true") == 0 || strcasecmp(v, "yes") == 0 || strcasecmp(v, "on") == 0 || strcmp(v, "1") == 0;
}

static int is_false(const char *v) {
	return strcasecmp(v, "false") == 0 || strcasecmp(v, "no") == 0 || strcasecmp(v, "off") == 0 || strcmp(v, "0") == 0;
}

/* Options that take no value: a true setting gives the option, a false one nothing. */
static const char *const flags[] = { "verbose", "start-blanked", "sticky-keys", "mouse-keys", "locate-pointer",
	"no-pointer", "libinput", "osk-resize", "touch-spots", NULL };

static int is_flag(const char *name) {
	for (int i = 0; flags[i]; i++) {
		if (strcmp(flags[i], name) == 0) {
			return 1;
		}
	}
	return 0;
}

static int handle(void *user, const char *section, const char *name, const char *value) {
	struct config_reader *r = user;
	if (r->status >= 0) {
		return 1; /* the first error is the one told */
	}
	snprintf(r->where, sizeof r->where, "%s:%d", r->path, r->line);
	char option[512];
	const char *subject = NULL; /* the output or device a section names */
	if (section[0] != '\0') {
		if (strncmp(section, "output ", 7) == 0 && section[7] != '\0') {
			subject = section + 7;
			if (strcmp(name, "transform") != 0 && strcmp(name, "scale") != 0) {
				r->status = r->apply(r->data, r->where, NULL, "an [output NAME] section takes transform and scale only");
				return 1;
			}
		} else if (strncmp(section, "device ", 7) == 0 && section[7] != '\0') {
			subject = section + 7;
			if (strcmp(name, "output") == 0) {
				name = "map-touch";
			} else if (strcmp(name, "calibration") == 0) {
				name = "calibrate";
			} else if (strcmp(name, "ignore") == 0) {
				if (is_false(value)) {
					return 1;
				}
				if (!is_true(value)) {
					r->status = r->apply(r->data, r->where, NULL, "ignore is true or false");
					return 1;
				}
				name = "ignore-device";
				value = subject;
				subject = NULL;
			} else {
				r->status = r->apply(r->data, r->where, NULL, "a [device NAME] section takes output, calibration and ignore only");
				return 1;
			}
		} else if (strcmp(section, "kiosk") != 0) {
			r->status = r->apply(r->data, r->where, NULL, "sections are [kiosk], [output NAME] and [device NAME]");
			return 1;
		}
	}
	if (strcmp(name, "config") == 0) {
		r->status = r->apply(r->data, r->where, NULL, "a configuration file cannot name another");
		return 1;
	}
	if (is_flag(name)) {
		if (is_false(value)) {
			return 1;
		}
		if (!is_true(value)) {
			snprintf(option, sizeof option, "%s is true or false, not '%s'", name, value);
			r->status = r->apply(r->data, r->where, NULL, option);
			return 1;
		}
		snprintf(option, sizeof option, "--%s", name);
	} else if (subject) {
		snprintf(option, sizeof option, "--%s=%s=%s", name, subject, value);
	} else {
		snprintf(option, sizeof option, "--%s=%s", name, value);
	}
	r->status = r->apply(r->data, r->where, option, NULL);
	return 1;
}

int config_load(const char *path, config_option_fn apply, void *data) {
	struct config_reader r = { .path = path, .apply = apply, .data = data, .status = -1 };
	r.file = fopen(path, "r");
	if (!r.file) {
		fprintf(stderr, "wlroots-kiosk: --config: cannot read %s: %s\n", path, strerror(errno));
		return 2;
	}
	int error = ini_parse_stream(read_line, &r, handle, &r);
	fclose(r.file);
	if (r.status >= 0) {
		return r.status;
	}
	if (error > 0) {
		fprintf(stderr, "wlroots-kiosk: %s:%d: not a 'name = value' line, a [section] or a comment\n", path, error);
		return 2;
	}
	if (error < 0) {
		fprintf(stderr, "wlroots-kiosk: --config: cannot read %s\n", path);
		return 2;
	}
	return -1;
}

const char *config_path(int argc, char *argv[]) {
	const char *path = NULL;
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) {
			path = argv[++i];
		} else if (strncmp(argv[i], "--config=", 9) == 0) {
			path = argv[i] + 9;
		}
	}
	return path;
}

/* ---- Devices to outputs ---- */

const char *device_rule_add(struct kiosk *k, bool calibration, const char *text) {
	const char *equals = strchr(text, '=');
	size_t length = equals ? (size_t)(equals - text) : 0;
	if (length == 0 || length >= sizeof k->device_rules[0].device) {
		return "is not DEVICE=VALUE (the device's kernel name, at most 63 bytes)";
	}
	const char *value = equals + 1;
	struct device_rule rule = { 0 };
	memcpy(rule.device, text, length);
	/* The same device again: the later setting replaces the earlier one's half. */
	struct device_rule *slot = NULL;
	for (int i = 0; i < k->device_rule_count; i++) {
		if (strcmp(k->device_rules[i].device, rule.device) == 0) {
			slot = &k->device_rules[i];
		}
	}
	if (calibration) {
		char *end = (char *)value;
		int count = 0;
		for (; count < 7; count++) {
			while (*end == ' ' || *end == ',' || *end == '\t') {
				end++;
			}
			if (*end == '\0') {
				break;
			}
			char *next;
			errno = 0;
			double v = strtod(end, &next);
			if (next == end || errno != 0 || v != v || v > 1e6 || v < -1e6 || count == 6) {
				return "is not DEVICE=a,b,c,d,e,f (six numbers: libinput's calibration matrix)";
			}
			rule.calibration[count] = v;
			end = next;
		}
		if (count != 6) {
			return "is not DEVICE=a,b,c,d,e,f (six numbers: libinput's calibration matrix)";
		}
		rule.calibrated = true;
	} else {
		if (value[0] == '\0' || strlen(value) >= sizeof rule.output) {
			return "names no output after '='";
		}
		strcpy(rule.output, value);
	}
	if (!slot) {
		if (k->device_rule_count == (int)(sizeof k->device_rules / sizeof k->device_rules[0])) {
			return "is one device too many (16 at most)";
		}
		slot = &k->device_rules[k->device_rule_count++];
		*slot = rule;
	} else if (calibration) {
		memcpy(slot->calibration, rule.calibration, sizeof rule.calibration);
		slot->calibrated = true;
	} else {
		strcpy(slot->output, rule.output);
	}
	return NULL;
}

void device_rules_apply(struct kiosk *k) {
	for (int i = 0; i < k->device_rule_count; i++) {
		struct device_rule *rule = &k->device_rules[i];
		if (seatkit_router_map_device(k->router, rule->device, rule->output[0] ? rule->output : NULL,
				rule->calibrated ? rule->calibration : NULL)) {
			say("device %s mapped to %s%s", rule->device, rule->output[0] ? rule->output : "its own output",
				rule->calibrated ? ", calibrated" : "");
		}
	}
}
