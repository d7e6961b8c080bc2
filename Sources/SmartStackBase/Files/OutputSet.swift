import Foundation

/// The report files of a run, put into their folder as one set.
///
/// A set is written in three steps, so that a reader of the folder sees the previous
/// complete set or the new complete set, never a mix, wherever the process is killed:
///
/// 1. **Stage**: every file is written (and `fsync`ed) into `FOLDER/.reports-staging/`,
///    then the names of the files the new set removes (the previous set's names among
///    `known` that the new set lacks) into `.reports-staging/.removes`, then the list of
///    the set's names into `.reports-staging/.names`. A kill or a failed
///    write (a full disk) here leaves the previous set untouched; the staging folder is
///    removed (at once on an error, by the next run on the folder after a kill).
/// 2. **Commit**: one `rename` of `.reports-staging` to `.reports-committed` (then the
///    folder is `fsync`ed). This is the moment the new set replaces the previous one.
/// 3. **Move**: the files `.removes` names are removed, every committed file is renamed
///    into `FOLDER` (in the set's order, so a `manifest.json` listed last arrives last),
///    and the committed folder is removed.
///
/// Step 3 is one `rename` per file: POSIX has no rename of several files at once, so
/// while it is unfinished `FOLDER` itself holds new files beside old ones. The committed
/// folder then holds the rest of the set, and a reader that follows this protocol reads
/// each file from there first (`currentPath(_:in:)`, used by `smartstack report` and by
/// the Python package's `load`): the set seen is the new one. `recover(_:known:)`, which
/// every command writing into the folder calls under the folder's lock before its work,
/// finishes a move a killed run left (step 3 is idempotent, and uses the recorded
/// `.removes`, not the recovering command's names) and removes a staging folder and
/// temporary files; `settle(_:known:)` does the same for a command that only reads the
/// folder or checks it before locking it, when the lock is free.
public enum OutputSet {
  public static let stagingName = ".reports-staging"
  public static let committedName = ".reports-committed"
  static let namesFile = ".names"
  static let removesFile = ".removes"

  /// One file of a set.
  public struct File: Sendable {
    public var name: String
    public var bytes: [UInt8]
    public init(name: String, bytes: [UInt8]) {
      self.name = name
      self.bytes = bytes
    }
    /// A text file (UTF-8).
    public init(name: String, text: String) {
      self.init(name: name, bytes: Array(text.utf8))
    }
  }

  /// Writes `files` into `folder` (which exists) as one set (steps 1–3 above).
  ///
  /// - Parameter known: every name a set of this command can hold; those of the previous
  ///   set missing from `files` are removed when the new set moves in.
  /// - Throws: `OutputFileError` (the previous set is then untouched, unless the error
  ///   comes after the commit, while moving: then the next run or `report` completes it).
  public static func publish(_ files: [File], into folder: String, known: [String]) throws {
    try stage(files, into: folder, known: known)
    try commitStaged(into: folder, known: known)
  }

  /// Step 1 alone: `files` staged in `folder`, not yet replacing anything; then
  /// `commitStaged(into:known:)` publishes them, or `discardStaged(in:)` drops them. For
  /// a command that publishes two sets all or nothing (`batch --emit-exposures`): the
  /// second is staged (its bytes on disk) before the first is published. Hold the
  /// folder's lock from here to the commit.
  ///
  /// - Throws: `OutputFileError` (nothing is then left staged).
  public static func stage(_ files: [File], into folder: String, known: [String]) throws {
    let staging = folder + "/" + stagingName
    removeTree(staging)
    guard mkdir(staging, 0o755) == 0 else {
      throw OutputFileError(path: staging, reason: String(cString: strerror(errno)))
    }
    do {
      for file in files {
        try stage(file.bytes, name: file.name, in: staging)
        FaultInjection.reached("report")
      }
      let setNames = files.map(\.name)
      let removes = known.filter { !setNames.contains($0) }.map { $0 + "\n" }.joined()
      try stage(Array(removes.utf8), name: removesFile, in: staging)
      let names = setNames.joined(separator: "\n") + "\n"
      try stage(Array(names.utf8), name: namesFile, in: staging)
      syncFolder(staging)
    } catch {
      removeTree(staging)
      throw error
    }
  }

  /// Drops a set `stage(_:into:known:)` left uncommitted in `folder`.
  public static func discardStaged(in folder: String) {
    removeTree(folder + "/" + stagingName)
  }

  /// Steps 2 and 3 for the set staged in `folder` by `stage(_:into:known:)`.
  ///
  /// - Throws: `OutputFileError` as `publish` does.
  public static func commitStaged(into folder: String, known: [String]) throws {
    let staging = folder + "/" + stagingName
    let committed = folder + "/" + committedName
    removeTree(committed)  // a finished move's empty remains (recover ran before)
    guard rename(staging, committed) == 0 else {
      let reason = String(cString: strerror(errno))
      removeTree(staging)
      throw OutputFileError(path: committed, reason: reason)
    }
    syncFolder(folder)
    FaultInjection.reached("commit")
    try move(folder, known: known)
  }

  /// Finishes what a killed run left in `folder`: completes a committed set's move,
  /// removes an uncommitted staging folder and temporary files (`AtomicFile`). Call it
  /// while holding the folder's `FolderLock`.
  ///
  /// - Returns: notes on what was done, for the user (empty when nothing was left).
  @discardableResult
  public static func recover(_ folder: String, known: [String]) throws -> [String] {
    var notes: [String] = []
    if PathKind(folder + "/" + stagingName) != .missing {
      removeTree(folder + "/" + stagingName)
      notes.append("\(folder): removed the unfinished report set of an interrupted run")
    }
    if PathKind(folder + "/" + committedName) == .folder {
      try move(folder, known: known)
      notes.append("\(folder): finished putting in place the report set of an interrupted run")
    }
    let stale = AtomicFile.removeTemporaryFiles(in: folder)
    if !stale.isEmpty {
      notes.append("\(folder): removed temporary files of an interrupted run: " + stale.joined(separator: ", "))
    }
    return notes
  }

  /// True when a killed run left a staging or committed folder in `folder`.
  public static func isInterrupted(_ folder: String) -> Bool {
    PathKind(folder + "/" + stagingName) != .missing || PathKind(folder + "/" + committedName) != .missing
  }

  /// `recover(_:known:)` for a command that does not hold the folder's lock (`smartstack
  /// report`, or a writing command checking the folder before it locks it): when a killed
  /// run left a staging or committed folder, takes the lock if it is free, recovers, and
  /// releases it. Does nothing (and returns no note) when nothing was left, when another
  /// run holds the lock (that run recovers), or when the folder cannot be written (a
  /// reader then still reads the committed set through `currentPath(_:in:)`).
  ///
  /// - Parameter known: used only for a committed folder without `.removes` (left by a
  ///   version before that file).
  @discardableResult
  public static func settle(_ folder: String, known: [String]) -> [String] {
    guard isInterrupted(folder), access(folder, W_OK) == 0,
      let lock = try? FolderLock(folder: folder)
    else { return [] }
    defer { lock.release() }
    return (try? recover(folder, known: known)) ?? []
  }

  /// Where the current set's file `name` is: in the committed folder while a move is
  /// unfinished and the file has not moved yet, else in `folder`.
  public static func currentPath(_ name: String, in folder: String) -> String {
    let committed = folder + "/" + committedName
    if PathKind(committed + "/" + namesFile) == .regularFile,
      PathKind(committed + "/" + name) == .regularFile
    {
      return committed + "/" + name
    }
    return folder + "/" + name
  }

  /// Step 3: moves the committed set into `folder`.
  static func move(_ folder: String, known: [String]) throws {
    let committed = folder + "/" + committedName
    let namesPath = committed + "/" + namesFile
    guard PathKind(namesPath) == .regularFile else {
      removeTree(committed)  // killed after the move finished
      return
    }
    func lines(_ path: String) throws -> [String] {
      String(decoding: try FileIO.readBytes(path), as: UTF8.self).split(separator: "\n").map(String.init)
    }
    let names = try lines(namesPath)
    let removesPath = committed + "/" + removesFile
    let removes =
      PathKind(removesPath) == .regularFile
      ? try lines(removesPath) : known.filter { !names.contains($0) }
    for name in removes where !names.contains(name) && !name.contains("/") {
      if PathKind(folder + "/" + name) == .regularFile { unlink(folder + "/" + name) }
    }
    for name in names where PathKind(committed + "/" + name) == .regularFile {
      guard rename(committed + "/" + name, folder + "/" + name) == 0 else {
        throw OutputFileError(path: folder + "/" + name, reason: String(cString: strerror(errno)))
      }
      FaultInjection.reached("move")
    }
    unlink(namesPath)
    removeTree(committed)
    syncFolder(folder)
  }

  /// Writes one staged file (`fsync`ed), its failures as `OutputFileError` on its final
  /// name's staging path.
  static func stage(_ bytes: [UInt8], name: String, in staging: String) throws {
    do {
      try AtomicFile.create(staging + "/" + name, bytes: bytes, name: name, sync: true)
    } catch {
      throw OutputFileError(
        path: staging + "/" + name,
        reason: "\(error.reason) (the previous reports are left as they were)")
    }
  }

  /// Removes `path` and everything below it; nothing when it is missing.
  static func removeTree(_ path: String) {
    guard PathKind(path) != .missing else { return }
    try? FileManager.default.removeItem(atPath: path)
  }

  /// `fsync` of a folder, so that renames in it survive a power cut.
  static func syncFolder(_ path: String) {
    guard FaultInjection.syncs else { return }
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = fsync(fd)
    close(fd)
  }
}
