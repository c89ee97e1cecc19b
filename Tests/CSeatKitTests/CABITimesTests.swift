import CSeatKitSupport
import Foundation
import Synchronization
import Testing

extension TheProcessWideCLog {
    /// Interface tables carry their size: the library copies them and reads only what the
    /// caller's header had.
    @Suite struct CInterfaceABITests {
        init() {
            forgetLoggedLines()
            seatkit_log_init(SEATKIT_ERROR, captureLogForThreads)
        }

        private func makeTree() -> (router: OpaquePointer, surface: OpaquePointer) {
            let router = seatkit_router_create_virtual(0)!
            let output = seatkit_output_create(router, "OUT-1", 0, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1)!
            let surface = seatkit_surface_create(router, "app", 0, 0, 800, 600)!
            _ = seatkit_surface_add_child(seatkit_output_get_root(output), surface)
            return (router, surface)
        }

        private func tap(_ router: OpaquePointer, at t: Int64) {
            seatkit_router_notify_touch_down(router, t, 1, 0, 10, 10)
            seatkit_router_notify_touch_frame(router, t, 1)
            seatkit_router_notify_touch_up(router, t + 1000, 1, 0)
            seatkit_router_notify_touch_frame(router, t + 1000, 1)
        }

        @Test func aTableWhoseStructSizeIsNotSetIsRefusedAndLogged() {
            let (router, surface) = makeTree()
            let counter = ThreadCounter()
            var table = countingTable()
            table.struct_size = 0
            seatkit_surface_set_responder(surface, &table, Unmanaged.passUnretained(counter).toOpaque())
            #expect(loggedLines.last == "seatkit_surface_set_responder: seatkit_responder_interface.struct_size is 0: set it to sizeof(struct seatkit_responder_interface); refused")
            tap(router, at: 0)
            #expect(counter.began == 0)
            // Every other table too.
            var filter = seatkit_filter_interface()
            #expect(seatkit_router_add_filter(router, &filter, nil) == nil)
            #expect(loggedLines.last?.contains("seatkit_filter_interface.struct_size is 0") == true)
            var grab = seatkit_grab_interface()
            #expect(seatkit_grab_create(router, &grab, nil) == nil)
            #expect(loggedLines.last?.contains("seatkit_grab_interface.struct_size is 0") == true)
            var delegate = seatkit_delegate_interface()
            seatkit_router_set_delegate(router, &delegate, nil)
            #expect(loggedLines.last?.contains("seatkit_delegate_interface.struct_size is 0") == true)
            var opener = seatkit_device_opener_interface()
            var paths: [UnsafePointer<CChar>?] = []
            #expect(seatkit_libinput_create_path(router, &paths, 0, &opener, nil) == nil)
            #expect(loggedLines.last?.contains("seatkit_device_opener_interface.struct_size is 0") == true)
            seatkit_router_destroy(router)
        }

        /// A program compiled when the table ended after touches_began: the members after it
        /// are NULL to the library, whatever lies in memory there.
        @Test func anOlderProgramsShorterTableReadsTheMembersAddedSinceAsNull() {
            let (router, surface) = makeTree()
            let counter = ThreadCounter()
            var table = countingTable()
            table.struct_size = MemoryLayout<seatkit_responder_interface>.offset(of: \.touches_moved)!
            seatkit_surface_set_responder(surface, &table, Unmanaged.passUnretained(counter).toOpaque())
            #expect(loggedLines.isEmpty)
            tap(router, at: 0)
            #expect(counter.began == 1, "touches_began is inside the size")
            #expect(counter.ended == 0, "touches_ended is past it")
            seatkit_router_destroy(router)
        }

        /// A program compiled against a newer header with more members: they are ignored.
        @Test func aNewerProgramsLongerTableIsTakenWithItsExtraMembersIgnored() {
            let (router, surface) = makeTree()
            let counter = ThreadCounter()
            let size = MemoryLayout<seatkit_responder_interface>.size
            let raw = UnsafeMutableRawPointer.allocate(byteCount: size + 64, alignment: 8)
            defer { raw.deallocate() }
            raw.initializeMemory(as: UInt8.self, repeating: 0xff, count: size + 64)
            var table = countingTable()
            table.struct_size = size + 64
            raw.storeBytes(of: table, as: seatkit_responder_interface.self)
            seatkit_surface_set_responder(surface, raw.assumingMemoryBound(to: seatkit_responder_interface.self),
                                          Unmanaged.passUnretained(counter).toOpaque())
            tap(router, at: 0)
            #expect(counter.began == 1 && counter.ended == 1)
            #expect(loggedLines.isEmpty)
            seatkit_router_destroy(router)
        }

        /// The library keeps its own copy: the caller's struct may change or go.
        @Test func theTableIsCopiedSoTheCallersStructNeedNotOutliveTheCall() {
            let (router, surface) = makeTree()
            let counter = ThreadCounter()
            var table = countingTable()
            seatkit_surface_set_responder(surface, &table, Unmanaged.passUnretained(counter).toOpaque())
            table.touches_began = nil
            table.struct_size = 0
            tap(router, at: 0)
            #expect(counter.began == 1 && counter.ended == 1)
            seatkit_router_destroy(router)
        }

        /// seatkit.h and seatkit-replay.h as C11 and as C++, every warning an error.
        @Test(arguments: [("/usr/bin/cc", ["-x", "c", "-std=c11"]), ("/usr/bin/c++", ["-x", "c++", "-std=c++17"]),
                          ("/usr/bin/c++", ["-x", "c++", "-std=c++11"])])
        func theHeadersCompileAsC11AndAsCxxWithWarningsAsErrors(compiler: String, language: [String]) throws {
            let root = CProgramTests.packageRoot.path
            let source = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-header-\(getpid())-\(language[1]).src").path
            // A table as each language writes one: C with designated initializers, C++ (before
            // C++20) member by member.
            let table = language[1] == "c"
                ? "static const struct seatkit_responder_interface table = { .struct_size = sizeof(struct seatkit_responder_interface) };"
                : "static struct seatkit_responder_interface make_table() { struct seatkit_responder_interface t = {}; t.struct_size = sizeof t; return t; }\nstatic const struct seatkit_responder_interface table = make_table();"
            try """
            #include <seatkit/seatkit.h>
            #include <seatkit/seatkit-replay.h>
            \(table)
            int main(int argc, char **argv) {
                (void)argv;
                if (argc > 5)
                    seatkit_replay_destroy(seatkit_replay_create(seatkit_router_create_virtual(0), "x", NULL));
                return table.struct_size == sizeof table ? 0 : 1;
            }
            """.write(toFile: source, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: source) }
            let flags = try run("/usr/bin/pkg-config", ["--cflags", "wayland-server"])
            let result = try run(compiler, language + ["-Wall", "-Wextra", "-pedantic", "-Werror", "-fsyntax-only",
                                                       "-I", root + "/Sources/CSeatKitSupport/include",
                                                       "-I", root + "/Sources/CSeatKitReplaySupport/include", source]
                                 + flags.output.split(whereSeparator: \.isWhitespace).map(String.init))
            #expect(result.status == 0, "\(compiler) \(language): \(result.output)")
        }
    }

    /// Event times and values from a compositor: times ahead of the clock, wlroots'
    /// milliseconds, absurd output scales.
    @Suite struct CTimeAndValueTests {
        init() {
            forgetLoggedLines()
            seatkit_log_init(SEATKIT_ERROR, captureLogForThreads)
        }

        /// On an event-loop clock, a touch stamped 10 s in the future is taken at now (a spy sees
        /// a time no later than the clock), the first such time is logged once, and a long press
        /// of 30 ms fires from the loop's timer as it would for a true time (it used to wait
        /// the 10 s, or for ever).
        @Test func anEventTimeAheadOfTheEventLoopClockIsClampedAndLoggedOnce() throws {
            let loop = try #require(wl_event_loop_create())
            defer { wl_event_loop_destroy(loop) }
            let router = try #require(seatkit_router_create(loop))
            let output = seatkit_output_create(router, "OUT-1", 0, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1)
            let press = seatkit_recognizer_create_long_press(router, "press", 30_000, 1)
            #expect(seatkit_output_add_recognizer(output, press))
            let times = Times()
            let spy = seatkit_router_add_spy(router, { data, event, _ in
                Unmanaged<Times>.fromOpaque(data!).takeUnretainedValue().seen.append(event!.pointee.time_usec)
            }, Unmanaged.passUnretained(times).toOpaque())
            seatkit_recognizer_set_callback(press, { data, _, state in
                if state == SEATKIT_RECOGNIZER_BEGAN { Unmanaged<Times>.fromOpaque(data!).takeUnretainedValue().began = true }
            }, Unmanaged.passUnretained(times).toOpaque())
            let ahead = seatkit_router_get_time(router) + 10_000_000
            seatkit_router_notify_touch_down(router, ahead, 1, 0, 100, 100)
            seatkit_router_notify_touch_frame(router, ahead, 1)
            seatkit_router_notify_touch_motion(router, ahead + 1000, 1, 0, 100.5, 100)
            let after = seatkit_router_get_time(router)
            // Down, frame, motion: all at most now.
            #expect(times.seen.count == 3 && times.seen.allSatisfy { $0 <= after }, "\(times.seen) after \(after) ahead \(ahead)")
            let warnings = loggedLines.filter { $0.contains("ahead of the router's clock") }
            #expect(warnings.count == 1, "\(loggedLines)")
            #expect(warnings.first?.contains("seatkit_time_from_msec") == true)
            // The long press fires from the loop's timer, 30 ms after the clamped time.
            let deadline = Date().addingTimeInterval(5)
            while !times.began && Date() < deadline { wl_event_loop_dispatch(loop, 100) }
            #expect(times.began, "the long press fired")
            #expect(seatkit_router_get_time(router) < ahead, "well before the time the event claimed")
            seatkit_spy_destroy(spy)
            seatkit_router_destroy(router)
        }

        /// wtype's virtual keyboard stamps every key 0: on an event-loop clock such a time (more
        /// than 10 s behind now) is taken as now, logged once; a key pressed "at boot" used to
        /// make key repeat catch up on hours of repeats at once (the kiosk hung under wtype).
        @Test func anEventTimeLongBehindTheEventLoopClockIsTakenAsNowAndLoggedOnce() throws {
            let loop = try #require(wl_event_loop_create())
            defer { wl_event_loop_destroy(loop) }
            let router = try #require(seatkit_router_create(loop))
            let now = seatkit_router_get_time(router)
            try #require(now > 20_000_000, "the machine has been up for more than 20 s")
            let keymap = try #require(seatkit_keymap_create_from_names(nil, nil, "us", nil, nil) as OpaquePointer?)
            seatkit_router_set_keymap(router, keymap, 25, 600)
            let times = Times()
            let spy = seatkit_router_add_spy(router, { data, event, _ in
                Unmanaged<Times>.fromOpaque(data!).takeUnretainedValue().seen.append(event!.pointee.time_usec)
            }, Unmanaged.passUnretained(times).toOpaque())
            seatkit_router_notify_key(router, 0, 1, 30, SEATKIT_KEY_PRESSED)
            seatkit_router_notify_key(router, 5_000, 1, 31, SEATKIT_KEY_PRESSED)
            #expect(times.seen.count == 2 && times.seen.allSatisfy { $0 >= now }, "\(times.seen) now \(now)")
            let warnings = loggedLines.filter { $0.contains("behind the router's clock") }
            #expect(warnings.count == 1, "\(loggedLines)")
            // No repeat is due yet: the loop's turn fires nothing (hours of repeats before).
            wl_event_loop_dispatch(loop, 0)
            #expect(times.seen.count == 2, "\(times.seen.count) events")
            // A real late delivery (50 ms) keeps its time.
            let late = seatkit_router_get_time(router) - 50_000
            seatkit_router_notify_key(router, late, 1, 31, SEATKIT_KEY_RELEASED)
            #expect(times.seen.last == late)
            seatkit_spy_destroy(spy)
            seatkit_router_destroy(router)
            seatkit_keymap_destroy(keymap)
        }

        /// wlroots' 32-bit milliseconds onto the router's clock, across the 49.7-day wrap.
        @Test func seatkitTimeFromMsecConvertsWlrootsMillisecondsAcrossTheWrap() throws {
            let wrap: Int64 = 1 << 32
            // The router's clock 5 s after the milliseconds wrapped (49.7 days of uptime).
            let now = (wrap + 5000) * 1000 + 400
            let router = try #require(seatkit_router_create_virtual(now))
            #expect(seatkit_time_from_msec(router, 5000) == (wrap + 5000) * 1000, "this millisecond")
            #expect(seatkit_time_from_msec(router, 4998) == (wrap + 4998) * 1000, "2 ms ago")
            #expect(seatkit_time_from_msec(router, UInt32.max - 1) == (wrap - 2) * 1000, "before the wrap: 5002 ms ago")
            #expect(seatkit_time_from_msec(router, 5003) == (wrap + 5003) * 1000, "3 ms ahead stays ahead (notify clamps it on a real clock)")
            let early = try #require(seatkit_router_create_virtual(7_000))
            #expect(seatkit_time_from_msec(early, 7) == 7000)
            #expect(seatkit_time_from_msec(early, 3) == 3000)
            #expect(seatkit_time_from_msec(nil, 3) == 0)
            #expect(loggedLines.last == "seatkit_time_from_msec: refused NULL router")
            seatkit_router_destroy(router)
            seatkit_router_destroy(early)
        }

        @Test func absurdOutputScalesAreRefusedWithALogLine() throws {
            let router = try #require(seatkit_router_create_virtual(0))
            let output = try #require(seatkit_output_create(router, "OUT-1", 0, 0, 800, 600, SEATKIT_OUTPUT_TRANSFORM_NORMAL, 1) as OpaquePointer?)
            for scale in [0, -1, .nan, .infinity, -.infinity, 1e-300, 0.01, 17, 1e300] as [Double] {
                forgetLoggedLines()
                seatkit_output_set_scale(output, scale)
                #expect(loggedLines.count == 1 && loggedLines.first?.contains("is outside 0.0625...16.0; refused") == true, "\(scale): \(loggedLines)")
                #expect((seatkit_output_create(router, "X", 0, 0, 10, 10, SEATKIT_OUTPUT_TRANSFORM_NORMAL, scale) as OpaquePointer?) == nil, "\(scale)")
                var x = 0.0, y = 0.0, w = 0.0, h = 0.0
                #expect(seatkit_output_get_layout_box(output, &x, &y, &w, &h) && w == 800 && h == 600, "\(scale) left the layout as it was")
            }
            forgetLoggedLines()
            for scale in [0.0625, 0.5, 1.5, 16] {
                seatkit_output_set_scale(output, scale)
                var x = 0.0, y = 0.0, w = 0.0, h = 0.0
                #expect(seatkit_output_get_layout_box(output, &x, &y, &w, &h) && w == 800 / scale, "\(scale)")
            }
            #expect(loggedLines.isEmpty, "\(loggedLines)")
            seatkit_router_destroy(router)
        }
    }
}

final class Times {
    var seen: [Int64] = []
    var began = false
}
