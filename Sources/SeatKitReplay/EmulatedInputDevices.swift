#if canImport(Glibc)
import Glibc
#endif

/// Recorded devices emulated by umockdev, for a process that opens them with real libinput:
/// the replay worker, or a compositor under test (`kiosk --libinput`). No root, no uinput.
///
/// ```swift
/// let devices = try EmulatedInputDevices([SyntheticDevice.keyboard()])
/// // start the compositor with devices.environment added to its own
/// try devices.write([FrameScript.key(30, 1)], toDevice: 0)   // libinput reads KEY_A down
/// ```
///
/// The testbed (its private /sys and /dev) lives as long as this object. A process sees it
/// when it runs with ``environment()``: SeatKitReplay's preload shim, then umockdev's, with
/// `UMOCKDEV_DIR` naming the testbed.
public final class EmulatedInputDevices {
    let testbed: UmockdevTestbedHandle
    let scratch: TemporaryDirectory
    let emulated: [EmulatedDevice]
    /// The writing ends of the emulated nodes, owned by the testbed.
    let deviceFds: [Int32]
    /// Unix98 PTY index of each node, which the shim counts reads of.
    let ptyIndexes: [Int]
    /// The file where the shim counts the bytes libinput read from each PTY.
    let readCountsPath: String

    /// Emulates `devices` as `/dev/input/event100`, `event101`, ... (in order), with `dmi`
    /// (a `dmi:` modalias, as recordings carry) for libinput's machine quirks. Throws when
    /// umockdev or its preload library is missing, or refuses a device.
    public convenience init(_ devices: [RecordedDevice], dmi: String? = nil) throws(ReplayError) {
        try self.init(devices, dmi: dmi, beforeAddingDevices: { _, _ throws(ReplayError) in })
    }

    /// As above; `beforeAddingDevices` runs once the (empty) testbed exists, with the
    /// environment a process needs to see it and the scratch directory, so that a process
    /// can start while the devices are being added.
    init(_ devices: [RecordedDevice], dmi: String?,
         beforeAddingDevices: (_ environment: [String: String], _ scratch: String) throws(ReplayError) -> Void) throws(ReplayError) {
        guard access("/usr/lib/x86_64-linux-gnu/libumockdev-preload.so.0", R_OK) == 0
            || access("/usr/lib/aarch64-linux-gnu/libumockdev-preload.so.0", R_OK) == 0
            || access("/usr/lib64/libumockdev-preload.so.0", R_OK) == 0 else {
            throw .environment("libumockdev-preload.so.0 is not installed (Debian: apt-get install umockdev libumockdev-dev)")
        }
        scratch = try TemporaryDirectory()
        readCountsPath = scratch.path + "/read-counts"
        guard writeFile(readCountsPath, [UInt8](repeating: 0, count: PreloadShim.counterCount * 8)) else {
            throw .environment("cannot create \(readCountsPath)")
        }
        testbed = UmockdevTestbedHandle()
        try beforeAddingDevices(try Self.environment(root: testbed.rootDirectory, readCounts: readCountsPath, ioctlAnswers: scratch.path), scratch.path)
        if let dmi, dmi.hasPrefix("dmi:") {
            try testbed.addDevices(description: EmulatedDevice.dmiDescription(dmi))
        }
        var emulated: [EmulatedDevice] = []
        var deviceFds: [Int32] = []
        var ptyIndexes: [Int] = []
        for (i, device) in devices.enumerated() {
            let e = EmulatedDevice(device: device, number: 100 + i)
            try testbed.addDevices(description: e.description)
            let ioctlPath = scratch.path + "/event\(e.number).ioctl"
            guard writeFile(ioctlPath, Array(e.ioctlRecord.utf8)) else { throw .environment("cannot write \(ioctlPath)") }
            try testbed.loadIoctls(node: e.node, file: ioctlPath)
            let fd = testbed.deviceFileDescriptor(node: e.node)
            guard fd >= 0 else { throw .environment("umockdev has no writable end for \(e.node)") }
            guard let pty = LibinputReplay.ptyIndex(testbed.rootDirectory + e.node) else {
                throw .environment("\(e.node) in the testbed is not a PTY")
            }
            // The node's evdev ioctls answered by the preload shim in the reading process
            // from this file (as in a replay), not by umockdev's testbed thread in this
            // process over a socket. Through that round trip, under load, libinput now and
            // then could not set a device up and left it out ("event101 - not using input
            // device", in its log since the C API forwards it): a CI run of
            // WlrootsKioskPadFocusTests lost its pad so, and a loop of kiosk starts with a
            // tablet and its pad lost a device in 2 of 90 starts (0 of 180 with this file).
            // umockdev still answers any request the file has no answer for.
            guard writeFile(scratch.path + "/pty\(pty)", e.ioctlAnswers) else {
                throw .environment("cannot write the ioctl answers of \(e.node)")
            }
            emulated.append(e)
            deviceFds.append(fd)
            ptyIndexes.append(pty)
        }
        self.emulated = emulated
        self.deviceFds = deviceFds
        self.ptyIndexes = ptyIndexes
    }

    /// The emulated nodes, in the order of the devices given.
    public var nodes: [String] { emulated.map(\.node) }

    /// What a process needs in its environment to see the emulated devices: the preload shim
    /// found beside this program or library (the SeatKitUmockdevShim product; see
    /// `PreloadShim`), then umockdev's.
    public func environment() throws(ReplayError) -> [String: String] {
        try Self.environment(root: testbed.rootDirectory, readCounts: readCountsPath, ioctlAnswers: scratch.path)
    }

    static func environment(root: String, readCounts: String, ioctlAnswers: String) throws(ReplayError) -> [String: String] {
        [
            "LD_PRELOAD": "\(try PreloadShim.libraryPath(worker: nil)):libumockdev-preload.so.0",
            "UMOCKDEV_DIR": root,
            "SEATKIT_REPLAY_ACK": readCounts,
            // The directory of the shim's ioctl answers, pty<N> (see init).
            "SEATKIT_REPLAY_IOCTLS": ioctlAnswers,
        ]
    }

    /// Writes one frame to device `index` as the kernel would deliver it: `events` and a
    /// SYN_REPORT, stamped `time` (µs of `CLOCK_MONOTONIC`; now when nil). Does not wait for
    /// the reader; a frame must fit the PTY's 4095 bytes (170 events).
    public func write(_ events: [EvdevEvent], toDevice index: Int, time: Int64? = nil) throws(ReplayError) {
        precondition(emulated.indices.contains(index), "no emulated device \(index)")
        let frame = events + [EvdevEvent(type: 0, code: 0, value: 0)]
        precondition(frame.count <= 170, "a frame of \(frame.count) events does not fit the PTY")
        try writeAll(deviceFds[index], Self.bytes(of: frame[...], stamp: time ?? monotonicMicroseconds()), what: emulated[index].node)
    }

    /// `struct input_event`s on 64-bit Linux: seconds, microseconds, type, code, value.
    static func bytes(of events: ArraySlice<EvdevEvent>, stamp: Int64) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(events.count * 24)
        append(events, stamp: stamp, to: &bytes)
        return bytes
    }

    /// Appends `events` as `struct input_event`s stamped `stamp` (µs).
    static func append(_ events: ArraySlice<EvdevEvent>, stamp: Int64, to bytes: inout [UInt8]) {
        let seconds = UInt64(bitPattern: stamp / 1_000_000)
        let micros = UInt64(bitPattern: stamp % 1_000_000)
        for e in events {
            withUnsafeBytes(of: (seconds.littleEndian, micros.littleEndian, e.type.littleEndian, e.code.littleEndian, e.value.littleEndian)) {
                bytes.append(contentsOf: $0)
            }
        }
    }
}

/// The file holding a replay's virtual time (µs, Int64), mapped by this process and by the
/// preload shim in the worker, where it answers libinput's `clock_gettime(CLOCK_MONOTONIC)`.
final class VirtualClockFile {
    let path: String
    private let page: UnsafeMutablePointer<Int64>

    init(path: String) throws(ReplayError) {
        self.path = path
        guard writeFile(path, [UInt8](repeating: 0, count: 4096)) else { throw .environment("cannot create \(path)") }
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw .environment("cannot open \(path)") }
        defer { close(fd) }
        guard let m = mmap(nil, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), m != MAP_FAILED else {
            throw .environment("cannot map \(path)")
        }
        page = m.bindMemory(to: Int64.self, capacity: 1)
    }

    /// Sets libinput's clock. Every write to a device or to the worker that follows is a
    /// system call, which orders this store before whatever the worker does next.
    func set(_ microseconds: Int64) { page.pointee = microseconds }

    deinit { munmap(UnsafeMutableRawPointer(page), 4096) }
}
