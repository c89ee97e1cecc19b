import CReplayWorkerEntry
import SeatKit
import SeatKitLibinput
import SeatKitSystem
#if canImport(Glibc)
import Glibc
#endif

/// One replay worker and one umockdev testbed kept for many replays, so that a test suite
/// pays their start-up (about 20 ms: a process, the Swift runtime, the testbed) once
/// rather than per replay.
///
/// ```swift
/// let session = ReplaySession()           // e.g. a `static let` shared by a suite's tests
/// let first = try session.replay(tapRecording)
/// let second = try session.replay(swipeRecording, options: ReplayOptions(configuration: tapping))
/// ```
///
/// Each replay gets its devices added to the testbed before it (a device replayed before at
/// the same place, with the same description, keeps its node and sysfs entries: in place
/// or parked aside until it comes back), on the same virtual timeline as a fresh worker's.
/// The worker keeps the libinput contexts of earlier replays (up to 8) and uses one again
/// for a replay with the same DMI and recorded quirks (what a context reads once, when it
/// starts) when no tablet was replayed in it; the devices are removed and added, numbered
/// from 1 again. The results are the same as ``LibinputReplay/run()``'s, byte for byte (a
/// test compares their JSON).
/// ``LibinputReplay/run()`` itself is a session used once.
///
/// Replays through one session run one after another (concurrent callers wait their turn);
/// use one session per thread to replay in parallel. A replay that fails discards the worker
/// and testbed, and the next replay starts fresh ones. The worker ends with the session (or
/// with this process).
public final class ReplaySession: @unchecked Sendable {
    private let workerExecutable: String?
    /// Guards `worker` and the counts: one replay at a time.
    private let lock = SessionLock()
    private nonisolated(unsafe) var worker: SessionWorker?
    private nonisolated(unsafe) var replays = 0
    private nonisolated(unsafe) var workersStarted = 0
    private nonisolated(unsafe) var contextsKept = 0
    private nonisolated(unsafe) var nodesKept = 0
    private nonisolated(unsafe) var filteredQuirksContexts = 0

    /// `workerExecutable`: as ``ReplayOptions/workerExecutable`` (by default this program,
    /// started again as the worker). Nothing starts until the first replay.
    public init(workerExecutable: String? = nil) {
        self.workerExecutable = workerExecutable
    }

    /// Replays `recording` as ``LibinputReplay/run()`` does, on this session's worker and
    /// testbed. `options.workerExecutable` is ignored (the session's worker runs it).
    public func replay(_ recording: Recording, options: ReplayOptions = ReplayOptions()) throws(ReplayError) -> LibinputReplayResult {
        try LibinputReplay.withRetries(recording: recording, options: options) { options, devicesAdded throws(ReplayError) in
            try replayOnce(recording, options: options, devicesAdded: &devicesAdded)
        }
    }

    /// Replays run so far, and worker processes started for them (1 while nothing failed).
    public var statistics: (replays: Int, workersStarted: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (replays, workersStarted)
    }

    /// Replays that used the libinput context of an earlier replay, for tests.
    var contextsReused: Int {
        lock.lock()
        defer { lock.unlock() }
        return contextsKept
    }

    /// Replays whose new libinput context started with the system quirks for its DMI
    /// (``SystemQuirks``), for tests.
    var contextsStartedWithFilteredQuirks: Int {
        lock.lock()
        defer { lock.unlock() }
        return filteredQuirksContexts
    }

    /// New contexts read every section of libinput's system quirks, also those for other
    /// machines' DMI, as libinput does by itself (the worker leaves those out otherwise:
    /// ``SystemQuirks``). For the test that compares the two; set before the first replay.
    nonisolated(unsafe) var readsAllSystemQuirks = false

    /// Devices whose testbed entries and node a replay took over from the replay before, for tests.
    var nodesReused: Int {
        lock.lock()
        defer { lock.unlock() }
        return nodesKept
    }

    /// The worker's process ID (nil before the first replay), for tests.
    var workerProcessID: pid_t? {
        lock.lock()
        defer { lock.unlock() }
        return worker?.child.pid
    }

    /// Ends the worker and removes the testbed now (otherwise when the session goes).
    public func close() {
        lock.lock()
        let w = worker
        worker = nil
        lock.unlock()
        w?.stop()
    }

    func replayOnce(_ recording: Recording, options: ReplayOptions, devicesAdded: inout Bool) throws(ReplayError) -> LibinputReplayResult {
        lock.lock()
        defer { lock.unlock() }
        let started = monotonicMicroseconds()
        // A worker that ended between replays (killed, or it crashed releasing the last
        // replay's context) is replaced.
        if let current = worker, current.child.hasExited {
            worker = nil
            current.stop()
        }
        if worker == nil {
            worker = try SessionWorker(workerExecutable: workerExecutable)
            workersStarted += 1
        }
        guard let current = worker else { throw .environment("the replay worker was not started") }
        current.readsAllSystemQuirks = readsAllSystemQuirks
        do throws(ReplayError) {
            var result = try current.replay(recording, options: options, devicesAdded: &devicesAdded)
            result.seconds = Double(monotonicMicroseconds() - started) / 1e6
            replays += 1
            if current.lastReplayReusedContext { contextsKept += 1 }
            if current.lastReplayServedFilteredQuirks { filteredQuirksContexts += 1 }
            nodesKept += current.lastReplayReusedNodes
            return result
        } catch {
            // Whatever state the worker or testbed is in, the next replay starts afresh.
            worker = nil
            current.stop()
            throw error
        }
    }

    deinit { close() }
}

/// A plain mutex (the session's state is not `Sendable`, so `Mutex` cannot hold it).
final class SessionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init() { pthread_mutex_init(mutex, nil) }
    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }
    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}

/// The worker process, testbed and shared files of a session.
final class SessionWorker {
    let testbed: UmockdevTestbedHandle
    let scratch: TemporaryDirectory
    let clock: VirtualClockFile
    let child: ChildProcess
    /// The read counters the shim keeps (one per PTY index), writable here to zero a new node's.
    private let counters: UnsafeMutablePointer<UInt64>
    /// The DMI modalias in the testbed now.
    private var dmi: String?
    /// Whether the worker used the libinput context of an earlier replay for the last replay.
    private(set) var lastReplayReusedContext = false
    /// The nodes of the last path replay, left in the testbed (libinput has closed them by the
    /// time the next replay begins): the next replay takes over those of the same device at
    /// the same number and parks the others. Making and removing a node's sysfs and udev
    /// entries was 0.67 ms of a 1.5 ms warm replay of one device.
    private var inPlace: [Node] = []
    /// Parked nodes: their device's sysfs directory moved out of `sys` (to `parking/N` in
    /// the testbed, where nothing looks), their PTY kept. A later replay of the same device
    /// at the same number moves it back (one rename and a few links instead of umockdev
    /// making and removing about 40 files). The longest parked go first when it is full.
    private var lot: [(node: Node, path: String)] = []
    private var parkingSerial = 0
    static let lotCapacity = 32
    /// Nodes the last replay took over from the replay before.
    private(set) var lastReplayReusedNodes = 0
    private var stopped = false
    /// ``ReplaySession/readsAllSystemQuirks``.
    var readsAllSystemQuirks = false
    private(set) var lastReplayServedFilteredQuirks = false

    init(workerExecutable: String?) throws(ReplayError) {
        guard access("/usr/lib/x86_64-linux-gnu/libumockdev-preload.so.0", R_OK) == 0
            || access("/usr/lib/aarch64-linux-gnu/libumockdev-preload.so.0", R_OK) == 0
            || access("/usr/lib64/libumockdev-preload.so.0", R_OK) == 0 else {
            throw .environment("libumockdev-preload.so.0 is not installed (Debian: apt-get install umockdev libumockdev-dev)")
        }
        let worker = try Self.workerCommand(explicit: workerExecutable)
        scratch = try TemporaryDirectory()
        let readCountsPath = scratch.path + "/read-counts"
        guard writeFile(readCountsPath, [UInt8](repeating: 0, count: PreloadShim.counterCount * 8)) else {
            throw .environment("cannot create \(readCountsPath)")
        }
        let fd = open(readCountsPath, O_RDWR | O_CLOEXEC)
        guard fd >= 0, let map = mmap(nil, PreloadShim.counterCount * 8, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED else {
            if fd >= 0 { Glibc.close(fd) }
            throw .environment("cannot map \(readCountsPath)")
        }
        Glibc.close(fd)
        counters = map.bindMemory(to: UInt64.self, capacity: PreloadShim.counterCount)
        clock = try VirtualClockFile(path: scratch.path + "/clock")
        clock.set(LibinputReplay.virtualBase)
        // The worker starts first (a process and the Swift runtime: the longest part of a
        // cold replay), while umockdev builds the testbed and adds the devices; it learns the
        // testbed's root with its first replay and waits for it on stdin until then.
        var environment = [
            // The shim beside the worker's binary: an explicit `seatkit` tool's (which may be
            // built differently from this program, e.g. without a sanitizer), else this
            // program's (or library's) own.
            "LD_PRELOAD": "\(try PreloadShim.libraryPath(worker: worker.environment.isEmpty ? worker.executable : nil)):libumockdev-preload.so.0",
            "SEATKIT_REPLAY_ACK": readCountsPath,
            "SEATKIT_REPLAY_CLOCK": clock.path,
            "SEATKIT_REPLAY_IOCTLS": scratch.path,
        ]
        environment.merge(worker.environment) { $1 }
        do {
            // Not another testbed's root that this process may have in its environment.
            child = try ChildProcess(executable: worker.executable, arguments: worker.arguments, environment: environment,
                                     unset: ["UMOCKDEV_DIR"], stderrPath: scratch.path + "/worker-stderr")
        } catch {
            munmap(UnsafeMutableRawPointer(counters), PreloadShim.counterCount * 8)
            throw error
        }
        testbed = UmockdevTestbedHandle()
    }

    deinit {
        stop()
        for node in inPlace { Glibc.close(node.master) }
        for entry in lot { Glibc.close(entry.node.master) }
        munmap(UnsafeMutableRawPointer(counters), PreloadShim.counterCount * 8)
    }

    /// Ends the worker: end of its stdin, then it is stopped rather than waited for.
    func stop() {
        guard !stopped else { return }
        stopped = true
        child.closeStdin()
        child.kill()
    }

    /// An emulated node made for one replay: umockdev's sysfs entries plus a PTY of our own.
    struct Node {
        let emulated: EmulatedDevice
        /// What umockdev and the shim were given for it: a node with the same can be used again.
        let description: String
        let answers: [UInt8]
        let master: Int32
        let pty: Int
        let ptymapLink: String
        let answersPath: String
    }

    /// Adds `device` as `/dev/input/event<number>`: umockdev writes its sysfs and udev
    /// entries; the node is a PTY made here (umockdev 0.17 cannot make a node again for a
    /// path it once made), and its evdev ioctls are answered by the shim from a file.
    private func addNode(_ e: EmulatedDevice, description: String, answers: [UInt8]) throws(ReplayError) -> Node {
        try testbed.addDevices(description: description)
        var ptyIndex: Int32 = -1
        let master = seatkit_replay_open_pty(&ptyIndex)
        let pty = Int(ptyIndex)
        guard master >= 0, pty < PreloadShim.counterCount else {
            let reason = String(cString: strerror(errno))
            if master >= 0 { Glibc.close(master) }
            testbed.removeDevice(systemPath: "/sys" + e.eventSystemPath)
            testbed.removeDevice(systemPath: "/sys" + e.inputSystemPath)
            throw .environment("cannot open a PTY for \(e.node): \(reason)")
        }
        let root = testbed.rootDirectory
        let ptyPath = "/dev/pts/\(pty)"
        let ptymapLink = root + "/dev/.ptymap/" + ptyPath.replacing("/", with: "_")
        let answersPath = scratch.path + "/pty\(pty)"
        makeDirectories(root + "/dev/input")
        makeDirectories(root + "/dev/.ptymap")
        counters[pty] = 0
        guard symlink(ptyPath, root + e.node) == 0,
              symlink("13:\(e.minor)", ptymapLink) == 0,
              writeFile(answersPath, answers) else {
            let reason = String(cString: strerror(errno))
            Glibc.close(master)
            unlink(ptymapLink)
            testbed.removeDevice(systemPath: "/sys" + e.eventSystemPath)
            testbed.removeDevice(systemPath: "/sys" + e.inputSystemPath)
            throw .environment("cannot make the node \(e.node) in the testbed: \(reason)")
        }
        return Node(emulated: e, description: description, answers: answers, master: master, pty: pty, ptymapLink: ptymapLink, answersPath: answersPath)
    }

    private func removeNode(_ node: Node) {
        // umockdev removes the node's symlink with the device (it reads DEVNAME).
        testbed.removeDevice(systemPath: "/sys" + node.emulated.eventSystemPath)
        testbed.removeDevice(systemPath: "/sys" + node.emulated.inputSystemPath)
        unlink(testbed.rootDirectory + node.emulated.node)
        unlink(node.ptymapLink)
        unlink(node.answersPath)
        Glibc.close(node.master)
    }

    private func inputDirectory(_ e: EmulatedDevice) -> String { testbed.rootDirectory + "/sys" + e.inputSystemPath }

    /// Takes an in-place node out of `sys` into the lot. The links umockdev made outside its
    /// directory stay (they name the same paths for any device at its number).
    private func park(_ node: Node) {
        if lot.count >= Self.lotCapacity { purge(lot.removeFirst()) }
        let parking = testbed.rootDirectory + "/parking"
        mkdir(parking, 0o755)
        let path = parking + "/\(parkingSerial)"
        parkingSerial += 1
        guard rename(inputDirectory(node.emulated), path) == 0 else {
            removeNode(node)
            return
        }
        lot.append((node, path))
    }

    /// Puts the parked node `lot[index]` back at its place in `sys`, with the links umockdev
    /// makes outside the device's directory (gone if umockdev removed another device at the
    /// same number since) and the node pointing at its PTY again.
    private func unpark(_ index: Int) throws(ReplayError) -> Node {
        let (node, path) = lot.remove(at: index)
        let e = node.emulated, root = testbed.rootDirectory
        for dir in ["/sys/class/input", "/sys/dev/char", "/dev/.node", "/dev/input"] where mkdir(root + dir, 0o755) != 0 && errno == ENOENT {
            makeDirectories(root + dir)
        }
        guard rename(path, inputDirectory(e)) == 0 else {
            let reason = String(cString: strerror(errno))
            purge((node, path))
            throw .environment("cannot put \(e.node) back into the testbed: \(reason)")
        }
        _ = symlink("../.." + e.eventSystemPath, root + "/sys/class/input/event\(e.number)")
        _ = symlink("../.." + e.inputSystemPath, root + "/sys/class/input/input\(e.number)")
        _ = symlink("../.." + e.eventSystemPath, root + "/sys/dev/char/13:\(e.minor)")
        _ = symlink("13:\(e.minor)", root + "/dev/.node/input_event\(e.number)")
        unlink(root + e.node)
        guard symlink("/dev/pts/\(node.pty)", root + e.node) == 0 else {
            let reason = String(cString: strerror(errno))
            removeNode(node)
            throw .environment("cannot make the node \(e.node) in the testbed: \(reason)")
        }
        counters[node.pty] = 0
        return node
    }

    /// Forgets a parked node for good.
    private func purge(_ entry: (node: Node, path: String)) {
        removeTree(entry.path)
        unlink(entry.node.ptymapLink)
        unlink(entry.node.answersPath)
        Glibc.close(entry.node.master)
    }

    /// Clears the testbed of every node of earlier replays, in place and parked.
    private func clearNodes() {
        for node in inPlace { removeNode(node) }
        inPlace = []
        while let entry = lot.popLast() { purge(entry) }
    }

    private func setDMI(_ modalias: String?) throws(ReplayError) {
        let wanted = modalias.flatMap { $0.hasPrefix("dmi:") ? $0 : nil }
        guard wanted != dmi else { return }
        if let wanted, dmi != nil {
            // Another machine: the same device with its modalias rewritten (libinput reads the
            // MODALIAS property) instead of umockdev removing and adding it. The two files as
            // umockdev writes them (through umockdev's own calls this took 0.1 ms).
            let directory = testbed.rootDirectory + "/sys/devices/virtual/dmi/id"
            if writeFile(directory + "/uevent", Array("MODALIAS=\(wanted)\nSUBSYSTEM=dmi\n".utf8)),
               writeFile(directory + "/modalias", Array(wanted.utf8)) {
                dmi = wanted
                return
            }
        }
        if dmi != nil {
            testbed.removeDevice(systemPath: "/sys/devices/virtual/dmi/id")
            dmi = nil
        }
        if let wanted {
            try testbed.addDevices(description: EmulatedDevice.dmiDescription(wanted))
            dmi = wanted
        }
    }

    /// One replay on this worker and testbed; sets `devicesAdded` once libinput has added
    /// every device.
    func replay(_ recording: Recording, options: ReplayOptions, devicesAdded: inout Bool) throws(ReplayError) -> LibinputReplayResult {
        var setup = ReplayWorker.Setup()
        setup.umockdevDirectory = testbed.rootDirectory
        setup.configuration = options.configuration
        if let seat = options.seat {
            guard options.removals.isEmpty else { throw .environment("device removals need the path backend (seat must be nil)") }
            setup.seat = seat
        }
        var quirksText: String?
        if options.appliesRecordedQuirks, recording.devices.contains(where: { !$0.quirks.isEmpty }) {
            let quirksPath = scratch.path + "/recorded.quirks"
            let text = LibinputReplay.quirksFile(for: recording)
            guard writeFile(quirksPath, Array(text.utf8)) else { throw .environment("cannot write \(quirksPath)") }
            setup.quirks = quirksPath
            quirksText = text
        }
        try setDMI(recording.dmi)
        if setup.seat == nil {
            // What a path context reads once, when it starts: the DMI modalias and the quirks
            // files (the recorded ones here; the system's do not change). A context is used
            // again only for a replay where these are the same.
            setup.contextKey = Self.contextKey(dmi: dmi, quirks: quirksText, allSystemQuirks: readsAllSystemQuirks)
        }
        setup.dmi = dmi
        setup.allSystemQuirks = readsAllSystemQuirks
        lastReplayReusedContext = false
        lastReplayServedFilteredQuirks = false
        var nodes: [Node] = []
        var keepNodes = false
        defer {
            if keepNodes { inPlace = nodes } else { for node in nodes { removeNode(node) } }
        }
        // A replay with a udev seat enumerates the testbed: nothing of earlier replays may be
        // in it, and it leaves nothing behind.
        if options.seat != nil { clearNodes() }
        // The last replay's nodes: those of the same device at the same number stay, the
        // others are parked; a device parked before at its number comes back.
        let emulated = recording.devices.enumerated().map { EmulatedDevice(device: $1, number: 100 + $0) }
        let wanted = emulated.map { (description: $0.description(withNode: false), answers: $0.ioctlAnswers) }
        func fits(_ node: Node, _ i: Int) -> Bool {
            node.emulated.number == 100 + i && node.description == wanted[i].description && node.answers == wanted[i].answers
        }
        var kept: [Int: Node] = [:]
        for node in inPlace {
            let i = node.emulated.number - 100
            if i < wanted.count, fits(node, i) { kept[i] = node } else { park(node) }
        }
        inPlace = []
        lastReplayReusedNodes = 0
        for (i, e) in emulated.enumerated() {
            do throws(ReplayError) {
                if let node = kept.removeValue(forKey: i) {
                    counters[node.pty] = 0
                    nodes.append(node)
                    lastReplayReusedNodes += 1
                } else if let j = lot.lastIndex(where: { fits($0.node, i) }) {
                    nodes.append(try unpark(j))
                    lastReplayReusedNodes += 1
                } else {
                    // umockdev makes the links outside the device's directory again; a parked
                    // device at this number left them.
                    let root = testbed.rootDirectory
                    for link in ["/sys/class/input/event\(e.number)", "/sys/class/input/input\(e.number)", "/sys/dev/char/13:\(e.minor)",
                                 "/dev/.node/input_event\(e.number)", e.node] {
                        unlink(root + link)
                    }
                    nodes.append(try addNode(e, description: wanted[i].description, answers: wanted[i].answers))
                }
            } catch {
                for node in kept.values { removeNode(node) }
                throw error
            }
        }
        setup.nodes = nodes.map(\.emulated.node)
        setup.ptys = nodes.map(\.pty)

        let base = LibinputReplay.virtualBase
        clock.set(base)
        // The nodes' PTY masters go with the command: the worker writes the frames itself.
        try child.send(setup.beginCommand, passing: nodes.map(\.master))
        var stream = WorkerStream(child: child, deviceCount: nodes.count)
        // libinput adds path devices while it starts: wait for all of them.
        try stream.readUntil { $0.added.count >= nodes.count }
        devicesAdded = true

        // The frames in time order, as places in the recording (no copy of a frame).
        let order = recording.mergedOrder
        func frame(_ i: Int) -> (device: Int, frame: EvdevFrame) {
            let d = Int(order[i].device)
            return (d, recording.devices[d].frames[Int(order[i].frame)])
        }
        let start = recording.startTime ?? 0
        // Back onto the recording's timeline; device announcements carry no time of their own.
        let shift = start - base
        func onRecordingTime(_ event: DeviceEvent) -> DeviceEvent {
            var e = event
            e.time = max(event.time, base) + shift
            return e
        }
        if let sink = options.eventSink {
            for event in stream.events { sink(onRecordingTime(event)) }
            stream.events = []
            stream.deliver = { sink(onRecordingTime($0)) }
        }
        var pendingRemovals = options.removals.sorted { $0.time < $1.time }
        var removed = Set<Int>()
        var evdevEvents = 0

        /// Hands the worker whole events for a device, to write with libinput's clock at
        /// `stamp`, in commands of at most ``ReplayWorker/maximumWrite`` bytes. Goes on as
        /// soon as the worker's socket has taken them; while it is full, what the worker
        /// reports is read, so neither side can wait on the other.
        func send(_ bytes: [UInt8], device: Int, stamp: Int64) throws(ReplayError) {
            var offset = 0
            repeat {
                let length = min(bytes.count - offset, ReplayWorker.maximumWrite)
                var header: [UInt8] = [ReplayWorker.writeCommand]
                header.reserveCapacity(17)
                header.appendLittleEndian(UInt32(device))
                header.appendLittleEndian(UInt64(bitPattern: stamp))
                header.appendLittleEndian(UInt32(length))
                try stream.send(header)
                try stream.send(bytes, offset..<(offset + length))
                offset += length
            } while offset < bytes.count
        }

        func remove(_ device: Int, stamp: Int64) throws(ReplayError) {
            guard !removed.contains(device), device < nodes.count else { return }
            removed.insert(device)
            var command: [UInt8] = [ReplayWorker.removeCommand]
            command.appendLittleEndian(UInt32(device + 1))
            command.appendLittleEndian(UInt64(bitPattern: stamp))
            try stream.send(command)
            try stream.readUntil { $0.removed.contains(UInt32(device + 1)) }
        }

        var lastStamp = base
        var index = 0
        var batch: [UInt8] = []
        let maximumBatch = max(1, options.maximumBatchFrames)
        while index < order.count {
            let device = Int(order[index].device)
            let time = frame(index).frame.time
            if let next = pendingRemovals.first, next.time <= time {
                pendingRemovals.removeFirst()
                lastStamp = max(lastStamp, base + (next.time - start))
                try remove(next.device, stamp: lastStamp)
                continue
            }
            if removed.contains(device) {
                index += 1
                continue
            }
            // A batch: consecutive frames of one device, ended by another device's frame or a
            // removal. libinput fires due timers by each event's timestamp, so a batch gives
            // the same events as its frames one by one.
            batch.removeAll(keepingCapacity: true)
            var count = 0
            while index < order.count, Int(order[index].device) == device, count < maximumBatch {
                let item = frame(index).frame
                if let next = pendingRemovals.first, next.time <= item.time { break }
                let stamp = base + (item.time - start)
                lastStamp = stamp
                EmulatedInputDevices.append(item.events[...], stamp: stamp, to: &batch)
                evdevEvents += item.events.count
                index += 1
                count += 1
            }
            // libinput's clock reads the time of the batch's last event: never behind an
            // event it reads, never ahead of what it has been given.
            try send(batch, device: device, stamp: lastStamp)
            options.progress?(index, order.count)
        }
        for removal in pendingRemovals {
            lastStamp = max(lastStamp, base + (removal.time - start))
            try remove(removal.device, stamp: lastStamp)
        }
        // Timers due after the last frame (tap, hold, debounce) run when libinput next sees an
        // event: one empty frame per device, 2 s of virtual time later.
        lastStamp += 2_000_000
        for device in nodes.indices where !removed.contains(device) {
            try send(EmulatedInputDevices.bytes(of: [EvdevEvent(type: 0, code: 0, value: 0)][...], stamp: lastStamp), device: device, stamp: lastStamp)
        }
        // The end: libinput's context goes, with it the nodes' readers, before they are removed.
        try stream.send([ReplayWorker.endCommand])
        try stream.readUntil { $0.ended }
        lastReplayReusedContext = stream.reusedContext
        lastReplayServedFilteredQuirks = stream.servedFilteredQuirks
        // In place: a long replay's events are its largest array.
        var events: [DeviceEvent] = []
        swap(&events, &stream.events)
        for i in events.indices { events[i] = onRecordingTime(events[i]) }
        keepNodes = options.seat == nil
        var result = LibinputReplayResult(events: events, framesWritten: order.count, evdevEventsWritten: evdevEvents, seconds: 0)
        result.shortWrites = stream.shortWrites
        return result
    }

    /// The key a path context is kept under: a 64-bit FNV-1a hash of the DMI modalias and
    /// the recorded quirks, each marked present or absent.
    static func contextKey(dmi: String?, quirks: String?, allSystemQuirks: Bool = false) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ text: String?) {
            let bytes: [UInt8] = text.map { [1] + Array($0.utf8) + [0] } ?? [2]
            for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        }
        add(dmi)
        add(quirks)
        if allSystemQuirks { add("all system quirks") }
        return String(hash, radix: 16)
    }

    /// Removes `path` and everything under it (symbolic links as links).
    private func removeTree(_ path: String) {
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = DirectoryEntry.name(entry)
                guard name != "." && name != ".." else { continue }
                let child = path + "/" + name
                if DirectoryEntry.isDirectory(entry) { removeTree(child) } else { unlink(child) }
            }
            closedir(dir)
        }
        rmdir(path)
    }

    /// The worker to start and how: an explicit `seatkit` tool (`replay-worker` command),
    /// or by default this very program again in worker mode (CReplayWorkerEntry), which is
    /// always there and built from the same sources as this library.
    static func workerCommand(explicit: String?) throws(ReplayError) -> (executable: String, arguments: [String], environment: [String: String]) {
        if let explicit = explicit ?? getenv("SEATKIT_REPLAY_WORKER").map({ String(cString: $0) }) {
            guard access(explicit, X_OK) == 0 else {
                throw .environment("the replay worker \(explicit) does not exist or cannot run (ReplayOptions.workerExecutable or SEATKIT_REPLAY_WORKER)")
            }
            return (explicit, ["replay-worker"], [:])
        }
        _ = seatkit_replay_worker_entry_linked()
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { throw .environment("cannot find the running executable to start it as the replay worker") }
        let exe = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (exe, [], [SEATKIT_REPLAY_WORKER_MODE: "1"])
    }
}
