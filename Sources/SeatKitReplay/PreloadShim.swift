#if canImport(Glibc)
import Glibc
#endif
import CReplayWorkerEntry

/// The small LD_PRELOAD library that makes real libinput accept umockdev 0.17's emulated
/// evdev nodes: the C target SeatKitUmockdevShim (Sources/SeatKitUmockdevShim/shim.c), built
/// with the package as the dynamic product of that name (warnings as errors) and installed by
/// scripts/install.sh as `libseatkit-umockdev-shim.so` beside `libseatkit-replay.so`.
/// Nothing is compiled at run time, and nothing is loaded from a shared directory: the shim
/// is looked for only beside the worker's binary (see ``libraryPath(worker:)``).
///
/// It must come *before* `libumockdev-preload.so.0` in `LD_PRELOAD`. It does these things:
/// 1. `udev_device_get_is_initialized()` answers 1: 0.17.16 does not redirect
///    `/run/udev/data`, so libudev would call every emulated device uninitialised and
///    libinput would skip it ("skip unconfigured input device"; fixed in umockdev 0.17.18).
/// 2. `fstat()` on an emulated node (a PTY underneath) reports the emulated device number
///    from the testbed's `dev/.ptymap`, so libinput's same-device check passes (fixed in
///    umockdev 0.19.2).
/// 3. `fopen()` of libinput's `/etc/libinput/local-overrides.quirks` opens the file named by
///    `SEATKIT_REPLAY_QUIRKS` instead: the recording's quirks, which umockdev cannot
///    provide because it does not redirect `/etc`.
/// 4. `read()` from a PTY adds the byte count to a shared counter (file named by
///    `SEATKIT_REPLAY_ACK`): the replay writes a frame, then waits until libinput has read
///    all of it, because a PTY holds at most 4095 bytes and a partial 24-byte event makes
///    libevdev drop the device. A read that stops inside an event (the PTY hands big writes
///    over in pieces) waits for the rest of that event, so libevdev only ever sees whole
///    events.
/// 5. With `SEATKIT_REPLAY_CLOCK` naming a file, `clock_gettime(CLOCK_MONOTONIC)` answers the
///    replay's virtual time stored there (µs, little-endian Int64), and `timerfd_settime`
///    arms nothing: libinput then fires its timers only by the timestamps of the events it
///    reads, so a replay's result never depends on the wall clock or the machine's speed.
/// 6. `fnmatch()` of patterns made of literals, `*` and `?` (libinput's quirks patterns) runs
///    in linear time here, with the C library's answer: quirk look-ups were half of a short
///    replay's instructions in the worker. Answers are remembered by the pattern's address
///    and used again only while the pattern's and the string's texts are the same.
/// 7. Calls umockdev would only pass on or translate (names relative to an open directory,
///    as libudev's sysfs walk makes them; `/sys` paths; other absolute paths outside `/dev`,
///    `/proc` and `/run/udev`) go to the kernel directly, translated as umockdev would,
///    without umockdev's lock (two `rt_sigprocmask` per call) and its `realpath` of
///    relative names against the working directory.
/// 8. A testbed device's udev database entry (`/run/udev/data/…`, which umockdev 0.17.16
///    does not redirect) opened for reading is empty, so libudev reads it once instead of
///    trying again on every property look-up; it adds nothing, and libudev then calls the
///    device initialised, which 1 answers anyway.
/// 9. libinput's system quirks files (`/usr/share/libinput/*.quirks`) are read from memory
///    while the worker serves them (`seatkit_shim_serve_quirks`, ``SystemQuirks``): without
///    the sections whose `MatchDMIModalias` the replay's DMI does not match.
enum PreloadShim {
    /// Number of counters in the shared file (one per PTY index).
    static let counterCount = 4096

    /// The shim's file names: as SwiftPM builds it, and as scripts/install.sh installs it.
    static let builtName = "libSeatKitUmockdevShim.so"
    static let installedName = "libseatkit-umockdev-shim.so"

    /// The shim to preload into a worker that is `worker` (an explicit `seatkit` tool), or,
    /// with nil, this very program (the file the SeatKitReplay code runs from: a test
    /// binary, the `seatkit` tool, libseatkit-replay.so). Looked for in that file's directory
    /// (the build products directory; an installed lib directory) and in `../lib` beside it
    /// (an installed `bin/seatkit`); for an explicit worker, beside the worker only. Used only if it is a regular file (not a link) that
    /// is owned by this user or root and writable by nobody else, in a directory that is
    /// owned by this user or root and writable by nobody else: another local user can never
    /// put a library there that a worker would preload.
    static func libraryPath(worker: String?) throws(ReplayError) -> String {
        // An explicit worker's own only: a `seatkit` tool of another build (without the
        // sanitizer this program has, say) needs the shim built with it.
        let images = worker.map { [$0] } ?? [imageOfThisCode()].compactMap { $0 }
        guard let image = images.first else {
            throw .environment("cannot tell which file the replay code was loaded from, to find the umockdev preload shim beside it")
        }
        let candidates = images.flatMap { image in
            let directory = parentDirectory(of: image)
            return [directory + "/" + builtName, directory + "/" + installedName, parentDirectory(of: directory) + "/lib/" + installedName]
        }
        var refused: [String] = []
        for candidate in candidates where access(candidate, F_OK) == 0 {
            if let reason = untrustedReason(candidate) { refused.append("\(candidate): \(reason)") } else { return candidate }
        }
        if !refused.isEmpty {
            throw .environment("the umockdev preload shim is not safe to load: " + refused.joined(separator: "; "))
        }
        throw .environment("the umockdev preload shim is not beside \(image) (looked for \(candidates.joined(separator: ", "))): "
            + "build the SeatKitUmockdevShim product (`swift build` builds it; a package that depends on SeatKit: "
            + "`swift build --product SeatKitUmockdevShim`), or install with scripts/install.sh")
    }

    /// The file the SeatKitReplay code of this process was loaded from.
    static func imageOfThisCode() -> String? {
        guard let path = seatkit_replay_image_path() else { return nil }
        return String(cString: path)
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Why `path` must not be preloaded, or nil if it may: a regular file, not a symbolic
    /// link, owned by this user or root, not writable by group or others, in a directory
    /// with the same owners and no write permission for others.
    static func untrustedReason(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return "cannot stat it" }
        guard info.st_mode & S_IFMT == S_IFREG else { return "not a regular file (a link or something else)" }
        guard info.st_uid == geteuid() || info.st_uid == 0 else { return "owned by another user (uid \(info.st_uid))" }
        guard info.st_mode & 0o022 == 0 else { return "writable by group or others (mode \(String(info.st_mode & 0o777, radix: 8)))" }
        var dir = stat()
        let directory = parentDirectory(of: path)
        guard stat(directory, &dir) == 0, dir.st_uid == geteuid() || dir.st_uid == 0 else { return "its directory is owned by another user" }
        guard dir.st_mode & 0o022 == 0 else { return "its directory \(directory) is writable by group or others" }
        return nil
    }
}

func makeDirectories(_ path: String) {
    var current = ""
    for part in path.split(separator: "/") {
        current += "/" + part
        mkdir(current, 0o755)
    }
}

func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
    guard let f = fopen(path, "wb") else { return false }
    let n = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
    return fclose(f) == 0 && n == bytes.count
}

/// Runs a program to completion, returning its exit status and what it printed.
func runProcess(_ path: String, _ arguments: [String]) -> (Int32, String) {
    var pipeFds: [Int32] = [0, 0]
    let piped = processEnvironmentLock.withLock { _ -> Bool in
        guard pipe(&pipeFds) == 0 else { return false }
        _ = fcntl(pipeFds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipeFds[1], F_SETFD, FD_CLOEXEC)
        return true
    }
    guard piped else { return (-1, "pipe failed") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_adddup2(&actions, pipeFds[1], 1)
    posix_spawn_file_actions_adddup2(&actions, pipeFds[1], 2)
    posix_spawn_file_actions_addclose(&actions, pipeFds[0])
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = processEnvironmentLock.withLock { _ in posix_spawn(&pid, path, &actions, nil, argv, environ) }
    posix_spawn_file_actions_destroy(&actions)
    close(pipeFds[1])
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = read(pipeFds[0], &buffer, buffer.count)
        if n <= 0 { break }
        output += buffer[0..<n]
    }
    close(pipeFds[0])
    guard spawned == 0 else { return (-1, "cannot start \(path)") }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return ((status >> 8) & 0xff | (status & 0x7f != 0 ? 128 : 0), String(decoding: output, as: UTF8.self))
}
