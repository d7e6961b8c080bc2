import Foundation

/// What a path names, seen without following a final symbolic link (`lstat`).
public enum PathKind: Sendable, Equatable {
  case missing, regularFile, folder, symbolicLink, characterDevice, blockDevice, fifo, socket,
    unknown

  /// The kind of `path`; `.missing` when nothing is there (or it cannot be examined).
  public init(_ path: String) {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      self = .missing
      return
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: self = .regularFile
    case S_IFDIR: self = .folder
    case S_IFLNK: self = .symbolicLink
    case S_IFCHR: self = .characterDevice
    case S_IFBLK: self = .blockDevice
    case S_IFIFO: self = .fifo
    case S_IFSOCK: self = .socket
    default: self = .unknown
    }
  }

  /// The kind in words, with an article: "a character device", "a symbolic link".
  public var words: String {
    switch self {
    case .missing: "nothing"
    case .regularFile: "a regular file"
    case .folder: "a folder"
    case .symbolicLink: "a symbolic link"
    case .characterDevice: "a character device"
    case .blockDevice: "a block device"
    case .fifo: "a FIFO (named pipe)"
    case .socket: "a socket"
    case .unknown: "a special file"
    }
  }
}

/// Checks on output paths, made before any work so that nothing is replaced that is not
/// the toolkit's to replace.
///
/// An output path may be missing (it is created) or a regular file (it is replaced by a
/// rename, never written through) where a file is expected, or a folder where a folder is
/// expected. Anything else that exists there is refused: a character or block device
/// (`/dev/null`), a FIFO, a socket, and a symbolic link (whatever it points at: a rename
/// would replace the link, not its target, and a link into another folder would take
/// outputs out of the folder the user named).
public enum OutputPath {
  /// Refuses `path` unless it is missing or a regular file.
  ///
  /// - Throws: `OutputFileError` naming the path and its kind.
  public static func checkFile(_ path: String) throws {
    let kind = PathKind(path)
    guard kind == .missing || kind == .regularFile else {
      throw OutputFileError(
        path: path,
        reason: "it is \(kind.words), not a regular file; refusing to replace it (give another output path)")
    }
  }

  /// Refuses `path` unless it is missing or a folder, and each of `files` inside it unless
  /// it is missing or a regular file.
  ///
  /// - Throws: `OutputFileError` naming the first path refused and its kind.
  public static func checkFolder(_ path: String, files: [String] = []) throws {
    let kind = PathKind(path)
    guard kind == .missing || kind == .folder else {
      throw OutputFileError(
        path: path,
        reason: "it is \(kind.words), not a folder; refusing to write into or replace it (give another --out folder)")
    }
    guard kind == .folder else { return }
    for name in files { try checkFile(path + "/" + name) }
  }
}

extension OutputPath {
  /// Creates the folder `path` and its missing parents (`mkdir -p`), refusing a path
  /// (or parent) that exists and is not a folder.
  ///
  /// - Throws: `OutputFileError` naming the path that could not be created and why, in
  ///   the system's words ("Permission denied", "No space left on device").
  public static func createFolder(_ path: String) throws {
    try checkFolder(path)
    guard PathKind(path) == .missing else { return }
    var prefix = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
      prefix += "/" + component
      var info = stat()
      if stat(prefix, &info) == 0 { continue }
      guard mkdir(prefix, 0o755) == 0 || errno == EEXIST else {
        throw OutputFileError(path: path, reason: "cannot create the folder \(prefix): \(String(cString: strerror(errno)))")
      }
    }
    guard PathKind(path) == .folder || isFolderThroughLinks(path) else {
      throw OutputFileError(path: path, reason: "cannot create the folder: a part of the path is not a folder")
    }
  }

  /// True when `path` is a folder, following links in it.
  static func isFolderThroughLinks(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }
}
