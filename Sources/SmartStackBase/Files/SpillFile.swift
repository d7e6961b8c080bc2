import Foundation

/// A private, nameless temporary file of append-only "buckets", for a reader that holds
/// more than it wants in memory: it appends fixed-size records of trivial types to
/// numbered buckets as it reads, and reads a bucket back whole when it needs it
/// (`DonationSpill`: a donation log's rows in blocks of people; `VisitSpill`).
///
/// **Nothing is left behind.** The file is made with `mkstemp` (mode 0600) under `TMPDIR`
/// (or `/tmp`) and unlinked at once: it has no name while it holds rows, so a process that
/// is killed (`SIGKILL`, a scheduler's time limit, an out-of-memory kill) leaves nothing
/// in `TMPDIR`; the kernel frees the space when the descriptor closes (`remove()`,
/// `deinit`, or the process's end). One descriptor, whatever the number of buckets.
///
/// **Layout.** Each bucket keeps a buffer of up to `bufferBytes` in memory; when it is full,
/// and in `flush()`, the buffer is written (`pwrite(2)`) at the file's end as one segment,
/// and the bucket remembers its segments in order. So memory is about `bufferBytes` per
/// bucket written to plus 16 bytes a segment, whatever the file's size, and reading a
/// bucket back is one `pread(2)` per segment (one per `bufferBytes` of its records).
/// `clear(_:)` hands a bucket's segments back to the file system where it can
/// (`fallocate(2)` punching holes, on ext4, XFS, Btrfs and tmpfs); elsewhere the space
/// comes back when the file is closed.
///
/// **Invariants** (the unsafe code lives only here):
/// - Records are the raw bytes of values of a trivial type (`_isPOD`, checked), written
///   and read back by the same process on the same machine, so layout and byte order
///   match; each record takes its stride, padding zeroed.
/// - A bucket's segments hold whole records once `flush()` has run (a buffer is written
///   whole), and are read back (`read(_:as:)`) only then, into a buffer of exactly the
///   bytes they hold.
/// - Only this object writes the file: it was created `O_EXCL` and has no name.
///
/// Not `Sendable`: one owner at a time while it is written. Once the last record is
/// appended and `flush()` has run, `read(_:as:)` changes nothing (it reads the bucket
/// tables and calls `pread(2)` at fixed offsets), so an owner that calls nothing else from
/// then on may share it for concurrent reads (`SpilledLogSource`'s `SharedSpill`).
public final class SpillFile {
  /// The name the file had before it was unlinked, for messages.
  public let path: String
  /// The bytes a bucket's buffer holds before it is written: 64 KiB by default.
  public let bufferBytes: Int

  /// Where a bucket's flushed bytes are in the file.
  struct Segment {
    var offset: Int
    var count: Int
  }

  private var descriptor: Int32
  // Not checked for exclusive access at run time (`@exclusivity(unchecked)`): the file has
  // one owner at a time (it is not `Sendable`), and no method calls out while it holds an
  // access, so accesses cannot overlap. The checks were 8 % of spilling a visit log.
  @exclusivity(unchecked) private var buffers: [[UInt8]] = []
  @exclusivity(unchecked) private var segments: [[Segment]] = []
  /// Bytes written to each bucket's segments so far (buffers not included).
  @exclusivity(unchecked) private var written: [Int] = []
  /// The file's size: where the next segment goes.
  private var end = 0

  /// A new, empty spill named `prefix`-XXXXXX, unlinked at once, in `directory` (default:
  /// `TMPDIR`, or `/tmp` when it is unset or empty).
  ///
  /// - Throws: `OutputFileError` when the file cannot be made.
  public init(prefix: String, bufferBytes: Int = 1 << 16, directory: String? = nil) throws {
    let base =
      directory ?? ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array((base.hasSuffix("/") ? base : base + "/").utf8CString.dropLast())
    template += Array("\(prefix)-XXXXXX".utf8CString)
    var failure = ""
    let made = template.withUnsafeMutableBufferPointer { buffer -> (Int32, String)? in
      let descriptor = mkstemp(buffer.baseAddress!)
      guard descriptor >= 0 else {
        failure = String(cString: strerror(errno))
        return nil
      }
      let name = String(cString: buffer.baseAddress!)
      unlink(name)
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
      return (descriptor, name)
    }
    guard let made else {
      throw OutputFileError(path: base, reason: "cannot make a temporary file for spilled rows (\(failure))")
    }
    (descriptor, path) = made
    self.bufferBytes = max(bufferBytes, 64)
  }

  deinit { remove() }

  /// The number of buckets appended to or made so far.
  public var bucketCount: Int { buffers.count }

  /// The file's size in bytes: every segment written, holes included.
  public var fileBytes: Int { end }

  /// The bytes the file system holds for the file (`st_blocks` × 512): less than
  /// `fileBytes` once cleared buckets' holes are punched. Nil after `remove()`.
  var allocatedBytes: Int? {
    guard descriptor >= 0 else { return nil }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return nil }
    return Int(status.st_blocks) * 512
  }

  /// True when `punchHole` works on this spill's file system (a hole is punched where the
  /// file has none yet; nothing is freed).
  var punchesHoles: Bool {
    guard descriptor >= 0, let fallocate = Self.fallocateFunction else { return false }
    return fallocate(descriptor, Self.punchHoleFlags, off_t(end), 4096) == 0
  }

  /// Appends `record`'s bytes to bucket `bucket` (made on first use; buckets are numbered
  /// densely from 0).
  ///
  /// - Throws: `OutputFileError` when a full buffer cannot be written.
  @inline(__always)
  public func append<Record>(_ record: Record, to bucket: Int) throws {
    precondition(_isPOD(Record.self), "spilled records must be trivial values")
    if bucket >= buffers.count { grow(to: bucket + 1) }
    withUnsafeBytes(of: record) { buffers[bucket].append(contentsOf: $0) }
    // A record takes its stride, as in an array: the padding after its last field.
    let padding = MemoryLayout<Record>.stride - MemoryLayout<Record>.size
    if padding > 0 { buffers[bucket].append(contentsOf: repeatElement(0, count: padding)) }
    if buffers[bucket].count >= bufferBytes { try write(bucket) }
  }

  /// Makes bucket `bucket` (and those before it) exist, empty if nothing is appended.
  public func touch(_ bucket: Int) {
    if bucket >= buffers.count { grow(to: bucket + 1) }
  }

  /// Writes every buffer to the file.
  ///
  /// - Throws: `OutputFileError` when the file cannot be written.
  public func flush() throws {
    for bucket in buffers.indices where !buffers[bucket].isEmpty { try write(bucket) }
  }

  /// The records of bucket `bucket`, in the order appended (after `flush()`).
  ///
  /// - Throws: `InputFileError` when the file cannot be read back or the bucket does not
  ///   hold whole records.
  public func read<Record>(_ bucket: Int, as: Record.Type) throws -> [Record] {
    precondition(_isPOD(Record.self), "spilled records must be trivial values")
    precondition(bucket < buffers.count && buffers[bucket].isEmpty, "read a bucket after flush()")
    precondition(descriptor >= 0, "read a bucket of a removed spill")
    let bytes = written[bucket]
    let stride = MemoryLayout<Record>.stride
    guard bytes % stride == 0 else {
      throw InputFileError(path: path, reason: "bucket \(bucket) holds \(bytes) bytes, not whole records of \(stride)")
    }
    guard bytes > 0 else { return [] }
    var failure: String? = nil
    let records = [Record](unsafeUninitializedCapacity: bytes / stride) { buffer, initialized in
      let raw = UnsafeMutableRawBufferPointer(buffer)
      var at = 0
      for segment in segments[bucket] {
        var done = 0
        while done < segment.count {
          let n = pread(descriptor, raw.baseAddress! + at + done, segment.count - done, off_t(segment.offset + done))
          if n < 0 && errno == EINTR { continue }
          guard n > 0 else {
            failure = n == 0 ? "ended at byte \(segment.offset + done) of \(end)" : String(cString: strerror(errno))
            initialized = 0
            return
          }
          done += n
        }
        at += segment.count
      }
      initialized = bytes / stride
    }
    if let failure { throw InputFileError(path: path, reason: "cannot be read back (\(failure))") }
    return records
  }

  /// Forgets bucket `bucket`'s records (the bucket stays, empty) and hands their space
  /// back to the file system where it can (punched holes; see the type).
  public func clear(_ bucket: Int) {
    guard bucket < buffers.count else { return }
    if descriptor >= 0 {
      for segment in segments[bucket] { Self.punchHole(descriptor, segment) }
    }
    segments[bucket] = []
    written[bucket] = 0
    buffers[bucket] = []
  }

  /// Closes the file, which frees its space (it has no name). Called by `deinit`; safe to
  /// call twice.
  public func remove() {
    guard descriptor >= 0 else { return }
    close(descriptor)
    descriptor = -1
  }

  private func grow(to count: Int) {
    while buffers.count < count {
      buffers.append([])
      segments.append([])
      written.append(0)
    }
  }

  /// Writes bucket `bucket`'s buffer at the file's end, as a segment of the bucket (joined
  /// to its last one when that ends there), and empties the buffer.
  private func write(_ bucket: Int) throws {
    precondition(descriptor >= 0, "wrote to a removed spill")
    try buffers[bucket].withUnsafeBytes { raw in
      var done = 0
      while done < raw.count {
        let n = pwrite(descriptor, raw.baseAddress! + done, raw.count - done, off_t(end + done))
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else {
          throw OutputFileError(
            path: path, reason: "cannot be written (\(n < 0 ? String(cString: strerror(errno)) : "no progress"))")
        }
        done += n
      }
    }
    let count = buffers[bucket].count
    if let last = segments[bucket].last, last.offset + last.count == end {
      segments[bucket][segments[bucket].count - 1].count += count
    } else {
      segments[bucket].append(Segment(offset: end, count: count))
    }
    end += count
    written[bucket] += count
    buffers[bucket].removeAll(keepingCapacity: true)
    FaultInjection.reached("spill")
  }

  /// `fallocate(descriptor, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, …)` over `segment`;
  /// does nothing where the C library or the file system lacks it. `fallocate` is looked up
  /// by name (`dlsym`) and its flags are `<linux/falloc.h>`'s, which the Glibc module does
  /// not export.
  private static func punchHole(_ descriptor: Int32, _ segment: Segment) {
    #if canImport(Glibc)
      guard let fallocate = fallocateFunction else { return }
      _ = fallocate(descriptor, punchHoleFlags, off_t(segment.offset), off_t(segment.count))
    #endif
  }

  /// `FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE` (0x02 | 0x01, `<linux/falloc.h>`).
  private static let punchHoleFlags: Int32 = 0x02 | 0x01

  private typealias Fallocate = @convention(c) (Int32, Int32, off_t, off_t) -> Int32
  private static let fallocateFunction: Fallocate? = {
    #if canImport(Glibc)
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fallocate") else { return nil }
      return unsafeBitCast(symbol, to: Fallocate.self)
    #else
      return nil
    #endif
  }()
}
