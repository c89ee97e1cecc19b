import Benchmark
import RoutingWorkloads
import SeatKit

// The per-event path: time and heap allocations per routed event, once warm (the target is
// zero allocations). One iteration is 1,000 events; times are per event.
//
// Not here yet, and why:
// - a key press turned into text through xkbcommon, against the same xkbcommon calls made
//   directly: waits for SeatKitXKB. The key benchmark below routes a key with no keymap.
// - replay through real libinput under umockdev, start-up time and recording parse
//   throughput: wait for SeatKitReplay.

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

    Benchmark("key press and release to the first responder (no keymap yet)", configuration: perEvent) { benchmark in
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
