import Benchmark
import RoutingWorkloads
import SeatKit

// The per-event path: time and heap allocations per routed event, once warm (the target is
// zero allocations). One iteration is 1,000 events; times are per event.
//
// Replay (libinput under umockdev, start-up, parse throughput against PyYAML) is not here:
// it runs child processes and reads files, so BenchmarkReport measures it (--only replay).

let benchmarks: @Sendable () -> Void = {
    let perEvent = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        warmupIterations: 5,
        scalingFactor: .kilo,
        maxDuration: .seconds(1),
        maxIterations: 5_000
    )

    Benchmark("touch motion to its bound surface, two recognizers, five-deep chain", configuration: perEvent) { benchmark in
        let scene = RoutingScene()
        scene.putTwoFingersDown()
        for step in 0..<2_000 { scene.moveFinger(Int32(step & 1), step: step) }
        benchmark.startMeasurement()
        for step in benchmark.scaledIterations { scene.moveFinger(Int32(step & 1), step: step) }
        benchmark.stopMeasurement()
        blackHole(scene.delegate.drops)
    }

    Benchmark("pointer motion with hit-test and focus change", configuration: perEvent) { benchmark in
        let scene = RoutingScene()
        for step in 0..<2_000 { scene.movePointerAcross(step: step) }
        benchmark.startMeasurement()
        for step in benchmark.scaledIterations { scene.movePointerAcross(step: step) }
        benchmark.stopMeasurement()
        blackHole(scene.delegate.drops)
    }

    Benchmark("key press and release to the first responder (no key interpreter)", configuration: perEvent) { benchmark in
        let scene = RoutingScene()
        scene.focusLeaf()
        for _ in 0..<2_000 {
            scene.send(.key(keycode: 30, state: .pressed))
            scene.send(.key(keycode: 30, state: .released))
        }
        benchmark.startMeasurement()
        for step in benchmark.scaledIterations {
            scene.send(.key(keycode: 30, state: step & 1 == 0 ? .pressed : .released))
        }
        benchmark.stopMeasurement()
    }

    // Issue 28: the same three kinds of event with the accessibility filters in front, every
    // one on (set so that these events pass it whole: RoutingScene.addAccessibilityFilters),
    // and with all eight added but off (the cost of a filter a user has not turned on).
    for enabled in [true, false] {
        let state = enabled ? "on" : "off"
        Benchmark("touch motion, two recognizers, five-deep chain, accessibility filters \(state)", configuration: perEvent) { benchmark in
            let scene = RoutingScene()
            scene.addAccessibilityFilters(enabled: enabled)
            scene.putTwoFingersDown()
            for step in 0..<2_000 { scene.moveFinger(Int32(step & 1), step: step) }
            benchmark.startMeasurement()
            for step in benchmark.scaledIterations { scene.moveFinger(Int32(step & 1), step: step) }
            benchmark.stopMeasurement()
            blackHole(scene.delegate.drops)
        }

        Benchmark("pointer motion with hit-test and focus change, accessibility filters \(state)", configuration: perEvent) { benchmark in
            let scene = RoutingScene()
            scene.addAccessibilityFilters(enabled: enabled)
            for step in 0..<2_000 { scene.movePointerAcross(step: step) }
            benchmark.startMeasurement()
            for step in benchmark.scaledIterations { scene.movePointerAcross(step: step) }
            benchmark.stopMeasurement()
            blackHole(scene.delegate.drops)
        }

        Benchmark("key press and release to the first responder, accessibility filters \(state)", configuration: perEvent) { benchmark in
            let scene = RoutingScene()
            scene.addAccessibilityFilters(enabled: enabled)
            scene.focusLeaf()
            for _ in 0..<2_000 {
                scene.send(.key(keycode: 30, state: .pressed))
                scene.send(.key(keycode: 30, state: .released))
            }
            benchmark.startMeasurement()
            for step in benchmark.scaledIterations {
                scene.send(.key(keycode: 30, state: step & 1 == 0 ? .pressed : .released))
            }
            benchmark.stopMeasurement()
        }
    }

    // Issue 4: a key press to text at the focused responder through SeatKitXKB's Keyboard,
    // and the same xkbcommon calls made directly from C, on the same key sequence.
    // BenchmarkReport runs the two interleaved and prints the ratio.
    Benchmark("key event to text at the first responder, SeatKitXKB us keymap", configuration: perEvent) { benchmark in
        let scene = try! KeyTextScene()
        for step in 0..<2_000 { scene.routeKey(step) }
        benchmark.startMeasurement()
        for step in benchmark.scaledIterations { scene.routeKey(step) }
        benchmark.stopMeasurement()
        blackHole(scene.text.bytes)
    }

    Benchmark("key event to text, xkbcommon called directly (C)",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal, .throughput], warmupIterations: 5,
                                   maxDuration: .seconds(1), maxIterations: 5_000)) { benchmark in
        // One iteration is the whole sequence; divide by KeyTextScene.sequence.count (114).
        let scene = try! KeyTextScene()
        blackHole(scene.runDirect(times: 20))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(scene.runDirect(times: 1)) }
        benchmark.stopMeasurement()
    }

    // A million injected events (touch, pointer, buttons, keys): allocations over all of
    // them, and resident memory growth. A replay of a recording replaces this once
    // SeatKitReplay exists.
    Benchmark("a million mixed events through the router",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal, .peakMemoryResidentDelta],
                                   warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 3)) { benchmark in
        let scene = RoutingScene()
        scene.focusLeaf()
        for step in 0..<100 { scene.sendMixedCycle(step) }
        let cycles = 1_000_000 / RoutingScene.eventsPerMixedCycle + 1
        benchmark.startMeasurement()
        for step in 0..<cycles { scene.sendMixedCycle(step) }
        benchmark.stopMeasurement()
    }
}
