import Foundation
import SmartStackKit

/// Output folders of `replay`, `simulate` and `evaluate`: checked before any work (`OutputClaim`:
/// the path, the inputs, another run's reports), locked for the run, their files put in
/// place as one set (`OutputSet`) with a `manifest.json`; a folder the run created is
/// removed again when the run fails.
enum OutputFolder {
  static let replayFiles = ["runs.csv", "daily.csv", "manifest.json"]
  static let simulateFiles = ["runs.csv", "daily.csv", "explain.csv", "manifest.json"]
  /// The files of `simulate --emit-log` (a log set, `SetKind.logs`).
  static let emittedFiles = SetKind.logNames

  /// Refuses `path` unless it is missing or a folder, any of `files` (and the lock file)
  /// in it that exists and is not a regular file, a path with a file where a folder
  /// should be or without permission, and an input inside it.
  static func check(_ path: String, files: [String], inputs: [String] = []) throws {
    try reportingErrors {
      try OutputClaim.checkPath(path)
      try OutputClaim.checkInputs(inputs, outside: path)
      try OutputPath.checkFolder(path, files: files + [FolderLock.fileName])
    }
  }

  /// Refuses a single-file output of a run (`simulate --emit-exposures`) that lands, after
  /// `.`, `..` and links (`ResolvedPath`), on a file of a set the same run writes
  /// into `folder`: one of `files`, its `.lock`, or anything under a hidden name there
  /// (`.journal/`, `.reports-staging/`, …). Other names in `folder` are the user's.
  ///
  /// - Throws: `OutputFileError` naming `file`.
  static func checkOutside(_ file: String, option: String, folder: String, files: [String]) throws {
    let root = ResolvedPath.of(folder) + "/"
    let path = ResolvedPath.of(file)
    guard path.hasPrefix(root) else { return }
    let inside = String(path.dropFirst(root.count))
    guard files.contains(inside) || inside == FolderLock.fileName || inside.hasPrefix(".") else { return }
    throw OutputFileError(
      path: file, reason: "\(option) names \(inside) in \(folder), where this run writes its own set of files; give another path")
  }

  /// Refuses a folder holding another run's reports unless `overwrite` (call `check`
  /// first, before reading the inputs). Returns the claim and the run's manifest (its
  /// times and jobs filled in when it is published).
  static func claim(
    _ path: String, run: String, inputs: [String], overwrite: Bool
  ) throws -> (OutputClaim, CommandManifest) {
    try claim(path, manifest: try manifest(run: run, inputs: inputs), inputs: inputs, overwrite: overwrite)
  }

  /// The manifest of a run of this command on `inputs` (each input read once, for its
  /// size and hash), its times and jobs filled in when it is published.
  static func manifest(run: String, inputs: [String]) throws -> CommandManifest {
    try reportingErrors {
      try CommandManifest(
        run: run, arguments: arguments, inputs: inputs, jobs: 0, started: Instant.current,
        finished: Instant.current, durationSeconds: 0)
    }
  }

  /// The manifest of a run of this command that started at `started` on inputs already
  /// hashed (`LogLoader` hashes what it reads, so nothing is read again for the manifest).
  static func manifest(run: String, inputs: [FileDigest], started: Instant) -> CommandManifest {
    CommandManifest(
      run: run, arguments: arguments, inputs: inputs, jobs: 0, started: started, finished: started,
      durationSeconds: 0)
  }

  /// `claim(_:run:inputs:overwrite:)` with the manifest already made (`manifest(run:…)`).
  static func claim(
    _ path: String, manifest: CommandManifest, inputs: [String], overwrite: Bool
  ) throws -> (OutputClaim, CommandManifest) {
    try reportingErrors {
      let claim = try OutputClaim.check(
        path, identity: OutputClaim.Identity(run: manifest.run, configHash: manifest.configHash),
        mode: overwrite ? .overwrite : .fresh, inputs: inputs)
      return (claim, manifest)
    }
  }

  /// Puts `files` and their manifest into the locked folder as one set, replacing the
  /// previous set's files (`claim`).
  static func publish(
    _ files: [OutputSet.File], into held: Held, claim: OutputClaim, manifest: CommandManifest,
    jobs: Int, files known: [String]
  ) throws {
    var manifest = manifest
    manifest.jobs = jobs
    manifest.finished = Instant.current
    manifest.durationSeconds = Double(manifest.finished.milliseconds - manifest.started.milliseconds) / 1000
    let set = files + [OutputSet.File(name: "manifest.json", text: manifest.json(files: files))]
    try OutputSet.publish(set, into: held.path, known: known + claim.previousFiles.filter { !known.contains($0) })
  }

  /// Creates `path`, takes its lock and cleans up after a killed run; the lock is held
  /// until the returned value is released (or the process ends).
  static func lock(_ path: String, files: [String]) throws -> Held {
    try reportingErrors {
      try OutputPath.checkFolder(path, files: files + [FolderLock.fileName])
      let created = PathKind(path) == .missing
      try OutputPath.createFolder(path)
      let lock = try FolderLock(folder: path)
      try OutputSet.recover(path, known: files)
      return Held(path: path, lock: lock, created: created)
    }
  }

  /// A locked output folder.
  struct Held {
    var path: String
    var lock: FolderLock
    /// The run created the folder.
    var created: Bool

    /// Releases the lock; unless `kept`, removes the folder when the run created it and
    /// it is empty (a failed run leaves nothing behind).
    func release(kept: Bool) {
      lock.release()
      if !kept && created { rmdir(path) }
    }
  }

  /// The command line after the command's name, for the manifest.
  static var arguments: [String] {
    let all = CommandLine.arguments.dropFirst()
    guard let command = all.firstIndex(where: { ["replay", "simulate", "evaluate"].contains($0) }) else { return Array(all) }
    return Array(all[(command + 1)...])
  }
}

extension Instant {
  /// The current wall-clock time (for manifests only, never for results).
  static var current: Instant { Instant(Date()) }
}
