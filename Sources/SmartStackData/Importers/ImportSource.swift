import SmartStackBase

/// The text an importer reads, unpacked from a plain, gzip, tar or tar-in-gzip file.
///
/// The container is recognised by content, never by file name: a file that starts with
/// `1f 8b` is gunzipped (`Gzip`); data with a tar header (`TarArchive.looksLikeTar`) is
/// an archive from which one member is taken; anything else is the text itself. So
/// `lsapp.tsv`, `lsapp.tsv.gz`, `lsapp.tar.gz`, `lsapp.tgz` and a tar archive misnamed
/// `.tsv.gz` all work.
///
/// **Choosing the member of an archive.** With `member` given, the regular file whose
/// path or last path component equals it. Otherwise the only regular file whose name
/// ends with one of `extensions` (case-insensitive), ignoring macOS resource forks
/// (`._name`). None or several such files is an error that lists the archive's files.
///
/// **Diagnostics** name the text `file`: the path as given, or `path(member)` for a
/// member of an archive (`lsapp.tar.gz(lsapp.tsv):12:3: ...`); lines and columns count
/// in the unpacked text.
public struct ImportSource: Sendable {
  /// How the text was packed.
  public enum Container: String, Sendable, Hashable {
    case plain
    case gzip
    case tar
    case tarGzip = "tar.gz"
    /// Biome SEGB files, read by `BiomeImporter` (`ImportSource.segb(path:)`).
    case segb
  }

  /// The default limit on the unpacked size of a gzip file: 2 GiB.
  public static let defaultExpansionLimit = 2 << 30

  /// The unpacked bytes (the whole archive for a tar file).
  public let bytes: [UInt8]
  /// Where the text lies in `bytes`.
  public let range: Range<Int>
  /// The name diagnostics use: `path` or `path(member)`.
  public let file: String
  /// How the text was packed.
  public let container: Container
  /// The archive member read, or nil.
  public let member: String?

  /// Reads `path` and unpacks it.
  ///
  /// - Parameters:
  ///   - member: the archive member to read (nil: the only one with an extension in
  ///     `extensions`).
  ///   - extensions: the file name endings a member may have, e.g. `[".tsv"]`.
  ///   - limit: the most bytes gzip data may expand to.
  /// - Throws: `InputFileError` when the file cannot be read; `ArchiveError` (naming
  ///   `path`) when it cannot be unpacked.
  public static func open(
    path: String, member: String? = nil, extensions: [String], limit: Int = defaultExpansionLimit
  ) throws -> ImportSource {
    let bytes = try FileIO.readBytes(path)
    do {
      return try unpack(bytes, file: path, member: member, extensions: extensions, limit: limit)
    } catch {
      throw error.naming(path)
    }
  }

  /// Unpacks `bytes` read from `file` (see the type's documentation).
  public static func unpack(
    _ bytes: [UInt8], file: String, member: String? = nil, extensions: [String],
    limit: Int = defaultExpansionLimit
  ) throws(ArchiveError) -> ImportSource {
    var data = bytes
    var gzipped = false
    if Gzip.isGzip(bytes) {
      data = try Gzip.decompress(bytes, limit: limit)
      gzipped = true
    }
    let isTar = data.withUnsafeBufferPointer { TarArchive.looksLikeTar($0) }
    guard isTar else {
      if let member {
        throw ArchiveError(
          .memberNotFound, "--member \(member) was given but the file is not a tar archive")
      }
      return ImportSource(
        bytes: data, range: 0..<data.count, file: file, container: gzipped ? .gzip : .plain,
        member: nil)
    }
    let archive = try data.withUnsafeBufferPointer { (buffer) throws(ArchiveError) in
      try TarArchive(buffer)
    }
    let entry = try choose(archive.entries, member: member, extensions: extensions)
    return ImportSource(
      bytes: data, range: entry.data, file: "\(file)(\(entry.name))",
      container: gzipped ? .tarGzip : .tar, member: entry.name)
  }

  /// Calls `body` with the text.
  public func withText<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
  }

  /// The size of the text in bytes.
  public var textCount: Int { range.count }

  static func choose(_ entries: [TarArchive.Entry], member: String?, extensions: [String])
    throws(ArchiveError) -> TarArchive.Entry
  {
    let files = entries.filter(\.isRegularFile)
    let listing =
      files.isEmpty
      ? "it holds no regular files" : "files: " + files.map(\.name).joined(separator: ", ")
    if let member {
      if let exact = files.first(where: { $0.name == member }) { return exact }
      let byBaseName = files.filter { $0.baseName == member }
      if byBaseName.count == 1 { return byBaseName[0] }
      throw ArchiveError(
        .memberNotFound,
        byBaseName.isEmpty
          ? "no file named '\(member)' in the archive (\(listing))"
          : "several files named '\(member)' in the archive; give the full path (\(listing))")
    }
    let lowered = extensions.map { $0.lowercased() }
    let candidates = files.filter { entry in
      !entry.baseName.hasPrefix("._")
        && lowered.contains { entry.name.lowercased().hasSuffix($0) }
    }
    let wanted = extensions.joined(separator: " or ")
    if candidates.count == 1 { return candidates[0] }
    if candidates.isEmpty {
      throw ArchiveError(
        .memberNotFound,
        "no \(wanted) file in the archive (\(listing)); choose one with --member")
    }
    throw ArchiveError(
      .ambiguousMember,
      "several \(wanted) files in the archive (\(candidates.map(\.name).joined(separator: ", "))); choose one with --member"
    )
  }
}
