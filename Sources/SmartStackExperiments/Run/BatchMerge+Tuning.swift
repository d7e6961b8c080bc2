import SmartStackBase

extension BatchMerge {
  /// The `tuning.csv` of a tuned experiment (its resolved config has `tuning`), taken from
  /// the shard folders `directories`: every shard tunes before its cells, deterministically
  /// and on the whole validation window, so each writes the same bytes one run writes, and
  /// merge checks that they all did. Nil when the experiment tunes nothing.
  ///
  /// Each folder's reports are read through `ManifestCheck` (a file changed or cut short
  /// after its shard wrote it is refused there).
  ///
  /// - Throws: `BatchError` when a folder's reports list no `tuning.csv` (a shard that did
  ///   not finish writing them, or was written by a version that tuned but did not write
  ///   it), or two folders' `tuning.csv` differ; `InputFileError` when a folder has no
  ///   `manifest.json`.
  static func tuningFile(of directories: [String], outline: ExperimentOutline) throws -> [UInt8]? {
    guard case .object(let members) = outline.config, members.contains(where: { $0.key == "tuning" }) else {
      return nil
    }
    var first: (directory: String, bytes: [UInt8])? = nil
    var seen: [String] = []
    for directory in directories where !seen.contains(directory) {
      seen.append(directory)
      guard let file = try ManifestCheck.read(directory).first(where: { $0.name == ExperimentOutputs.tuningFile }) else {
        throw BatchError(
          "\(directory): the experiment tunes strategy points, but this shard's reports (manifest.json) list no \(ExperimentOutputs.tuningFile): run the shard again (--resume keeps its cells), then merge")
      }
      if let first {
        guard first.bytes == file.bytes else {
          throw BatchError(
            "\(directory)/\(ExperimentOutputs.tuningFile) differs from \(first.directory)/\(ExperimentOutputs.tuningFile): the shards of one experiment tune identically, so one of them was changed or comes from another run; run the shards again")
        }
      } else {
        first = (directory, file.bytes)
      }
    }
    return first?.bytes
  }
}
