import CReplayWorkerEntry
import CSeatKitReplaySupport
import SeatKitLibinput
import SeatKitReplay
#if canImport(Glibc)
import Glibc
#endif

// seatkit_replay_create (libseatkit-replay; seatkit-replay.h): a `libinput record` file
// through real libinput under umockdev (SeatKitReplay), handed to libseatkit's player as
// SeatKitLibinput's binary events. The other seatkit_replay_* calls are C forwards to that
// player (CSeatKitReplaySupport/forward.c). Every C call of this module is in this file.

/// libseatkit's log level for errors (enum seatkit_log_importance).
private let errorImportance: Int32 = 1
private let infoImportance: Int32 = 2

private func log(_ importance: Int32, _ message: String) {
    message.withCString { seatkit__log(importance, $0) }
}

/// The replay worker beside the library: PREFIX/lib/libseatkit-replay.so -> PREFIX/bin/seatkit.
private func installedWorker() -> String? {
    guard let library = seatkit_replay_image_path().map({ String(cString: $0) }) else { return nil }
    var parts = library.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count >= 3 else { return nil }
    parts.removeLast(2)
    let candidate = (parts + ["bin", "seatkit"]).joined(separator: "/")
    return access(candidate, X_OK) == 0 ? candidate : nil
}

@_cdecl("seatkit_replay_create")
public func seatkit_replay_create(_ router: OpaquePointer?, _ path: UnsafePointer<CChar>?,
                                  _ worker: UnsafePointer<CChar>?) -> OpaquePointer? {
    guard seatkit__router_is_live(router) != 0 else {
        // The player refuses it and says why (NULL, destroyed, wrong kind, wrong thread).
        return seatkit__player_create(router, nil, 0)
    }
    guard let path else {
        log(errorImportance, "seatkit_replay_create: NULL path")
        return nil
    }
    let file = String(cString: path)
    let workerPath = worker.map { String(cString: $0) } ?? getenv("SEATKIT_REPLAY_WORKER").map { String(cString: $0) } ?? installedWorker()
    var bytes: [UInt8] = []
    do {
        let recording = try RecordingParser.parse(contentsOf: file)
        let result = try LibinputReplay(recording: recording, options: ReplayOptions(workerExecutable: workerPath)).run()
        for warning in result.warnings { log(infoImportance, "seatkit_replay_create: \(file): \(warning)") }
        for event in result.events { event.encode(into: &bytes) }
    } catch {
        log(errorImportance, "seatkit_replay_create: \(file): \(error)")
        return nil
    }
    return bytes.withUnsafeBufferPointer { seatkit__player_create(router, $0.baseAddress, $0.count) }
}
