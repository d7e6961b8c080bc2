import Foundation

/// A private temporary folder of append-only binary files ("buckets"), for a reader that
/// holds more than it wants in memory: it appends fixed-size records of trivial types to
/// numbered buckets as it reads, and reads a bucket back whole when it needs it
/// (`DonationSpill`: a donation log's rows in blocks of people).
///
/// Each bucket keeps a buffer of up to `bufferBytes` in memory and writes it to its file
/// (`write(2)`, appending) when full and in `flush()`, so memory is about `bufferBytes` per
/// bucket written to, whatever the files' sizes.
///
/// **Invariants** (the unsafe code lives only here):
/// - Records are the raw bytes of values of a trivial type (`_isPOD`, checked), written
///   and read back by the same process on the same machine, so layout and byte order
///   match; a bucket's file is only ever appended to, and read back (`read(_:as:)`) only
///   after `flush()`, as a whole number of records.
/// - The folder is made with `mkdtemp` (mode 0700) under `TMPDIR` (or `/tmp`), and each
///   file is created `O_EXCL` with mode 0600: no other user's file is read or written. It
///   is removed with everything in it in `remove()` and in `deinit`.
///
/// Not `Sendable`: one owner at a time.
public final class SpillFolder {
  /// The folder's path.
  public let path: String
  /// The bytes a bucket's buffer holds before it is written: 64 KiB.
  public let bufferBytes: Int
  // Not checked for exclusive access at run time (`@exclusivity(unchecked)`): a folder has
  // one owner at a time (it is not `Sendable`), and no method calls out while it holds an
  // access, so accesses cannot overlap. The checks were 8 % of spilling a visit log.
  @exclusivity(unchecked) private var buffers: [[UInt8]] = []
  @exclusivity(unchecked) private var created: [Bool] = []
  /// Bytes written to each bucket's file so far (buffers not included).
  @exclusivity(unchecked) private var written: [Int] = []
  private var removed = false

  /// A new, empty folder under `TMPDIR` (or `/tmp`) named `prefix`-XXXXXX.
  ///
  /// - Throws: `OutputFileError` when the folder cannot be made.
  public init(prefix: String, bufferBytes: Int = 1 << 16) throws {
    let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array((base.hasSuffix("/") ? base : base + "/").utf8CString.dropLast())
    template += Array("\(prefix)-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
      guard let result = mkdtemp(buffer.baseAddress!) else { return nil }
      return String(cString: result)
    }
    guard let made else {
      throw OutputFileError(
        path: base, reason: "cannot make a temporary folder for spilled rows (\(String(cString: strerror(errno))))")
    }
    path = made
    self.bufferBytes = max(bufferBytes, 64)
  }

  deinit { remove() }

  /// The number of buckets appended to or made so far.
  public var bucketCount: Int { buffers.count }

  /// The path of bucket `bucket`'s file.
  public func file(_ bucket: Int) -> String { path + "/\(bucket).bin" }

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

  /// Writes every buffer to its file.
  ///
  /// - Throws: `OutputFileError` when a file cannot be written.
  public func flush() throws {
    for bucket in buffers.indices where !buffers[bucket].isEmpty { try write(bucket) }
  }

  /// The records of bucket `bucket`, in the order appended (after `flush()`).
  ///
  /// - Throws: `InputFileError` when the file cannot be read or does not hold whole records.
  public func read<Record>(_ bucket: Int, as: Record.Type) throws -> [Record] {
    precondition(_isPOD(Record.self), "spilled records must be trivial values")
    precondition(bucket < buffers.count && buffers[bucket].isEmpty, "read a bucket after flush()")
    let bytes = written[bucket]
    let stride = MemoryLayout<Record>.stride
    guard bytes % stride == 0 else {
      throw InputFileError(path: file(bucket), reason: "holds \(bytes) bytes, not whole records of \(stride)")
    }
    guard bytes > 0 else { return [] }
    let descriptor = open(file(bucket), O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw InputFileError(path: file(bucket), reason: "cannot be opened (\(String(cString: strerror(errno))))")
    }
    defer { close(descriptor) }
    let count = bytes / stride
    var failure: String? = nil
    let records = [Record](unsafeUninitializedCapacity: count) { buffer, initialized in
      let raw = UnsafeMutableRawBufferPointer(buffer)
      var done = 0
      while done < bytes {
        let n = Foundation.read(descriptor, raw.baseAddress! + done, bytes - done)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else {
          failure = n == 0 ? "ended after \(done) of \(bytes) bytes" : String(cString: strerror(errno))
          initialized = 0
          return
        }
        done += n
      }
      initialized = count
    }
    if let failure { throw InputFileError(path: file(bucket), reason: "cannot be read back (\(failure))") }
    return records
  }

  /// Deletes bucket `bucket`'s file and forgets its records (the bucket stays, empty).
  public func clear(_ bucket: Int) {
    guard bucket < buffers.count else { return }
    if created[bucket] { unlink(file(bucket)) }
    created[bucket] = false
    written[bucket] = 0
    buffers[bucket] = []
  }

  /// Deletes the folder and its files. Called by `deinit`; safe to call twice.
  public func remove() {
    guard !removed else { return }
    removed = true
    for bucket in created.indices where created[bucket] { unlink(file(bucket)) }
    rmdir(path)
  }

  private func grow(to count: Int) {
    while buffers.count < count {
      buffers.append([])
      created.append(false)
      written.append(0)
    }
  }

  /// Appends bucket `bucket`'s buffer to its file and empties the buffer.
  private func write(_ bucket: Int) throws {
    let flags = O_WRONLY | O_APPEND | O_CLOEXEC | (created[bucket] ? 0 : O_CREAT | O_EXCL)
    let descriptor = open(file(bucket), flags, 0o600)
    guard descriptor >= 0 else {
      throw OutputFileError(path: file(bucket), reason: "cannot be written (\(String(cString: strerror(errno))))")
    }
    defer { close(descriptor) }
    created[bucket] = true
    try buffers[bucket].withUnsafeBytes { raw in
      var done = 0
      while done < raw.count {
        let n = Foundation.write(descriptor, raw.baseAddress! + done, raw.count - done)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else {
          throw OutputFileError(
            path: file(bucket), reason: "cannot be written (\(n < 0 ? String(cString: strerror(errno)) : "no progress"))")
        }
        done += n
      }
    }
    written[bucket] += buffers[bucket].count
    buffers[bucket].removeAll(keepingCapacity: true)
  }
}
