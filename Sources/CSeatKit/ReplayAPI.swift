import CSeatKitSupport
@_spi(SeatKitInternals) import SeatKit
import SeatKitLibinput
import SeatKitReplay

// seatkit_replay_*: `libinput record` files through real libinput, played into a router.

/// `seatkit_replay`: libinput's events for one recording, and where playing them has got to.
final class CReplay: HandleObject {
    /// The router that made it, unretained: it ends this object before it goes (rule 1 of
    /// `Unretained`).
    let ownerLink: Unretained<CRouter>
    var owner: CRouter { ownerLink.object }
    let announcements: [DeviceEvent]
    let input: [DeviceEvent]
    let translator = DeviceEventTranslator()
    var next = 0
    var offset: Int64 = 0
    var timer: TimerToken?
    var finished: seatkit_replay_finished_func_t?
    var finishedData: UnsafeMutableRawPointer?
    var isDestroyed = false

    init(owner: CRouter, events: [DeviceEvent]) {
        ownerLink = Unretained(owner)
        announcements = events.filter { if case .deviceAdded = $0.kind { true } else { false } }
        input = events.filter { if case .deviceAdded = $0.kind { false } else { true } }
    }

    func addDevices() {
        let now = owner.router.clock.now.microseconds
        for event in announcements {
            owner.router.inject(translator.translate(event, layout: owner.router.layout, timeOffset: now - event.time))
        }
    }

    func play() {
        if let first = input.first { offset = owner.router.clock.now.microseconds - first.time }
        playDueEvents()
    }

    private func playDueEvents() {
        timer = nil
        guard !isDestroyed, !owner.isDestroyed else { return }
        let router = owner.router
        while next < input.count, input[next].time + offset <= router.clock.now.microseconds {
            router.inject(translator.translate(input[next], layout: router.layout, timeOffset: offset))
            next += 1
            if isDestroyed || owner.isDestroyed { return }
        }
        guard next < input.count else {
            if let finished { finished(finishedData, handle) }
            return
        }
        timer = router.clock.schedule(at: Timestamp(microseconds: input[next].time + offset)) { [weak self] in
            self?.playDueEvents()
        }
    }

    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        if let timer { owner.router.clock.cancel(timer) }
        timer = nil
        finished = nil
        owner.replays.removeAll { $0 === self }
        Handles.remove(handle)
    }

    /// The replay worker beside the library: PREFIX/lib/libseatkit.so -> PREFIX/bin/seatkit.
    static func installedWorker() -> String? {
        guard let library = CCalls.pathOfThisLibrary() else { return nil }
        var parts = library.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return nil }
        parts.removeLast(2)
        let candidate = (parts + ["bin", "seatkit"]).joined(separator: "/")
        return CCalls.isExecutable(candidate) ? candidate : nil
    }
}

@_cdecl("seatkit_replay_create")
public func seatkit_replay_create(_ router: OpaquePointer?, _ path: UnsafePointer<CChar>?,
                                  _ worker: UnsafePointer<CChar>?) -> OpaquePointer? {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return nil }
    guard let path else {
        misuse(#function, "NULL path")
        return nil
    }
    let file = String(cString: path)
    let workerPath = worker.map { String(cString: $0) } ?? CCalls.environment("SEATKIT_REPLAY_WORKER") ?? CReplay.installedWorker()
    let events: [DeviceEvent]
    do {
        let recording = try RecordingParser.parse(contentsOf: file)
        let result = try LibinputReplay(recording: recording, options: ReplayOptions(workerExecutable: workerPath)).run()
        for warning in result.warnings { Log.info("seatkit_replay_create: \(file): \(warning)") }
        events = result.events
    } catch {
        misuse(#function, "\(file): \(error)")
        return nil
    }
    let replay = CReplay(owner: r, events: events)
    guard let handle = Handles.insert(replay, kind: .replay) else {
        misuse(#function, "too many live handles")
        return nil
    }
    r.replays.append(replay)
    return handle
}

@_cdecl("seatkit_replay_add_devices")
public func seatkit_replay_add_devices(_ handle: OpaquePointer?) {
    guard let replay = live(handle, .replay, as: CReplay.self, #function) else { return }
    APICall.run { replay.addDevices() }
}

@_cdecl("seatkit_replay_play")
public func seatkit_replay_play(_ handle: OpaquePointer?, _ finished: seatkit_replay_finished_func_t?,
                                _ data: UnsafeMutableRawPointer?) {
    guard let replay = live(handle, .replay, as: CReplay.self, #function) else { return }
    guard replay.next == 0, replay.timer == nil else {
        misuse(#function, "the replay is already playing or has played; refused")
        return
    }
    replay.finished = finished
    replay.finishedData = data
    APICall.run { replay.play() }
}

@_cdecl("seatkit_replay_get_event_count")
public func seatkit_replay_get_event_count(_ handle: OpaquePointer?) -> Int {
    live(handle, .replay, as: CReplay.self, #function)?.input.count ?? 0
}

@_cdecl("seatkit_replay_destroy")
public func seatkit_replay_destroy(_ handle: OpaquePointer?) {
    guard let replay = live(handle, .replay, as: CReplay.self, #function) else { return }
    APICall.run { replay.destroy() }
}
