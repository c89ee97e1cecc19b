import CAPIWorkloads
import RoutingWorkloads
import SeatKit
import ProcessCounters
import ThreadAllocations

// MARK: The C API against the Swift API (issue 13)

/// Median ns per event of each side over `rounds` batches of 100,000 events, the two sides
/// alternating batch by batch so that both see the same machine noise, and allocations per
/// event on this thread over all batches, after 10,000 warm-up events each.
func timePerEventAlternating(rounds: Int, _ a: (Int) -> Void, _ b: (Int) -> Void)
    -> (a: (ns: Double, allocations: Double), b: (ns: Double, allocations: Double)) {
    var stepA = 0, stepB = 0
    for _ in 0..<10_000 { a(stepA); stepA += 1; b(stepB); stepB += 1 }
    let calls = 100_000
    var samplesA: [Double] = [], samplesB: [Double] = []
    samplesA.reserveCapacity(rounds)
    samplesB.reserveCapacity(rounds)
    var allocationsA: UInt64 = 0, allocationsB: UInt64 = 0
    func batch(_ body: (Int) -> Void, _ step: inout Int, _ samples: inout [Double], _ allocations: inout UInt64) {
        let before = seatkit_thread_allocations()
        let start = nanoseconds()
        var i = 0
        while i < calls {
            body(step)
            step += 1
            i += 1
        }
        let elapsed = nanoseconds() - start
        allocations += seatkit_thread_allocations() - before
        samples.append(Double(elapsed) / Double(calls))
    }
    for round in 0..<rounds {
        // Alternate which side goes first, too.
        if round & 1 == 0 {
            batch(a, &stepA, &samplesA, &allocationsA)
            batch(b, &stepB, &samplesB, &allocationsB)
        } else {
            batch(b, &stepB, &samplesB, &allocationsB)
            batch(a, &stepA, &samplesA, &allocationsA)
        }
    }
    let total = Double(rounds * calls)
    return ((median(samplesA), Double(allocationsA) / total), (median(samplesB), Double(allocationsB) / total))
}

func printCAPITable(rounds: Int) {
    var rows: [(String, (ns: Double, allocations: Double), (ns: Double, allocations: Double))] = []

    let swiftTouch = RoutingScene()
    swiftTouch.putTwoFingersDown()
    let cTouch = CAPIScene()
    cTouch.putTwoFingersDown()
    let touch = timePerEventAlternating(rounds: rounds,
                                        { swiftTouch.moveFinger(Int32($0 & 1), step: $0) },
                                        { cTouch.moveFinger(Int32($0 & 1), step: $0) })
    rows.append(("touch motion + frame → bound leaf, two recognizers, five-deep chain", touch.a, touch.b))

    let swiftPointer = RoutingScene()
    let cPointer = CAPIScene()
    let pointer = timePerEventAlternating(rounds: rounds,
                                          { swiftPointer.movePointerAcross(step: $0) },
                                          { cPointer.movePointerAcross(step: $0) })
    rows.append(("pointer motion → hit-test, leave + enter, motion up the chain", pointer.a, pointer.b))

    let swiftKeys = RoutingScene()
    swiftKeys.focusLeaf()
    let cKeys = CAPIScene()
    cKeys.focusLeaf()
    let keys = timePerEventAlternating(rounds: rounds,
                                       { swiftKeys.send(.key(keycode: 30, state: $0 & 1 == 0 ? .pressed : .released)) },
                                       { cKeys.key(pressed: $0 & 1 == 0) })
    rows.append(("key press or release → first responder (no keymap)", keys.a, keys.b))

    // Both sides must have done the same work.
    let swiftCalls = [swiftTouch, swiftPointer, swiftKeys].map { scene in
        (scene.chain + scene.siblings).reduce(0) { $0 + (($1.responder as? CountingResponder)?.calls ?? 0) }
    }
    let cCalls = [cTouch, cPointer, cKeys].map(\.responderCalls)

    print("| event (one iteration = one event) | Swift API ns/event | C API ns/event | C / Swift | allocations/event once warm (Swift, C) |")
    print("|---|---:|---:|---:|---:|")
    for (name, s, c) in rows {
        let ratio = c.ns / s.ns
        print("| \(name) | \(format(s.ns)) | \(format(c.ns)) | \((ratio * 100).rounded() / 100)× | \(s.allocations), \(c.allocations) |")
    }
    print("\nresponder calls, Swift: \(swiftCalls), C: \(cCalls)")
}

/// For callgrind-capi.sh: per case and side, 10,000 warm events, then 10,000 between
/// callgrind client requests named "SIDE-CASE 10000" (sides swift and c; cases touch,
/// pointer, key). Instructions are the same from run to run, whatever else the machine does.
func countCAPIInstructions() {
    precondition(running_under_valgrind() != 0, "run through Benchmarks/callgrind-capi.sh")
    let events = 10_000
    func measure(_ name: String, _ body: (Int) -> Void) {
        for step in 0..<events { body(step) }
        callgrind_begin()
        var step = events
        while step < 2 * events {
            body(step)
            step += 1
        }
        callgrind_end("\(name) \(events)")
    }
    let swiftTouch = RoutingScene()
    swiftTouch.putTwoFingersDown()
    measure("swift-touch") { swiftTouch.moveFinger(Int32($0 & 1), step: $0) }
    let cTouch = CAPIScene()
    cTouch.putTwoFingersDown()
    measure("c-touch") { cTouch.moveFinger(Int32($0 & 1), step: $0) }
    let swiftPointer = RoutingScene()
    measure("swift-pointer") { swiftPointer.movePointerAcross(step: $0) }
    let cPointer = CAPIScene()
    measure("c-pointer") { cPointer.movePointerAcross(step: $0) }
    let swiftKeys = RoutingScene()
    swiftKeys.focusLeaf()
    measure("swift-key") { swiftKeys.send(.key(keycode: 30, state: $0 & 1 == 0 ? .pressed : .released)) }
    let cKeys = CAPIScene()
    cKeys.focusLeaf()
    measure("c-key") { cKeys.key(pressed: $0 & 1 == 0) }
}
