import SmartStackBase

/// Reads the report set of a batch folder as its `manifest.json` lists it, refusing a
/// folder whose files do not match: a mix of two runs, a file changed or cut short.
public enum ManifestCheck {
  /// The files `manifest.json` lists in `directory`, each checked against the manifest's
  /// size and FNV-1a 64. Each file is read where the current set has it
  /// (`OutputSet.currentPath`: a set whose move into place a killed run left unfinished
  /// is read from the committed folder). First, when a killed run left its set half
  /// moved and no run holds the folder's lock, the move is finished (`OutputSet.settle`),
  /// so that the folder's own files are the set again.
  ///
  /// - Returns: the files in the manifest's order, `manifest.json` not included.
  /// - Throws: `InputFileError` when the folder or its manifest is missing or unreadable;
  ///   `BatchError` naming the first file that does not match, or a manifest without
  ///   file hashes (written by a version before 0.5) or malformed, or an exposure or log
  ///   set's (`SetKind.exposures`, `SetKind.logs`: logs, not reports).
  public static func read(_ directory: String) throws -> [OutputSet.File] {
    guard PathKind(directory) == .folder || PathKind(directory) == .symbolicLink else {
      throw InputFileError(path: directory, reason: "no such folder")
    }
    OutputSet.settle(directory, known: OutputClaim.reportNames)
    // A run that publishes while this reads changes the manifest: read again (a set is
    // the one its manifest describes only if the manifest is the same before and after).
    for attempt in 1...3 {
      let before = currentManifest(directory)
      do {
        let (manifest, files) = try readOnce(directory)
        if attempt == 3 || (manifest == before && currentManifest(directory) == manifest) { return files }
      } catch {
        // Another attempt only when the manifest changed while reading.
        if attempt == 3 || before == nil || currentManifest(directory) == before { throw error }
      }
    }
    preconditionFailure("the third attempt returns or throws")
  }

  /// The bytes of the current set's manifest, nil when it cannot be read.
  static func currentManifest(_ directory: String) -> [UInt8]? {
    try? FileIO.readBytes(OutputSet.currentPath("manifest.json", in: directory))
  }

  /// One read of the manifest and its files; returns the manifest's bytes too.
  static func readOnce(_ directory: String) throws -> ([UInt8], [OutputSet.File]) {
    let manifestPath = OutputSet.currentPath("manifest.json", in: directory)
    guard PathKind(manifestPath) != .missing else {
      throw InputFileError(
        path: directory + "/manifest.json",
        reason:
          "no such file: the folder holds no complete report set (no run has finished writing one here)")
    }
    let manifest = try FileIO.readBytes(manifestPath)
    let stale =
      " was written by an older version, without file hashes; run the batch again with --resume (it rebuilds the reports from the journal)"
    guard let root = try? JSONParser.parse(manifest), let list = root["files"]?.value.arrayValue
    else {
      throw BatchError("\(directory)/manifest.json: not a manifest of smartstack batch (no \"files\" list)")
    }
    switch SetKind(run: root["run"]?.value.stringValue ?? "") {
    case .reports: break
    case .exposures:
      throw BatchError(
        "\(directory) holds exposure logs (its manifest.json is from batch --emit-exposures), not reports: give a log to smartstack evaluate --exposures \(directory)/exposures-SOURCE-STRATEGY.csv")
    case .logs:
      let donations = list.compactMap { $0["name"]?.value.stringValue }.first { $0.hasPrefix("donations.") } ?? "donations.csv"
      throw BatchError(
        "\(directory) holds simulated logs (its manifest.json is from simulate --emit-log), not reports: replay them with smartstack replay --log \(directory)/\(donations) --visits \(directory)/visits.csv --stack \(directory)/stack.json --timelines \(directory)/timelines.json --timezone ZONE --horizon 0")
    }
    var files: [OutputSet.File] = []
    for entry in list {
      guard entry.value.stringValue == nil else { throw BatchError("\(directory)/manifest.json" + stale) }
      guard let name = entry["name"]?.value.stringValue,
        let size = entry["bytes"]?.value.doubleValue,
        let hash = entry["fnv1a64"]?.value.stringValue,
        OutputClaim.reportNames.contains(name), name != "manifest.json"
      else {
        throw BatchError("\(directory)/manifest.json: a \"files\" entry is not {name, bytes, fnv1a64} of a report file")
      }
      let bytes = try FileIO.readBytes(OutputSet.currentPath(name, in: directory))
      guard Double(bytes.count) == size, FNV1a.hexHash(bytes) == hash else {
        throw BatchError(
          "\(directory)/\(name) does not match manifest.json (the manifest says \(NumberFormat.format(size)) bytes with FNV-1a 64 \(hash), the file has \(bytes.count) bytes with \(FNV1a.hexHash(bytes))): the folder holds files of different runs, or the file was changed. Run the batch again with --resume to rebuild the reports from the journal"
        )
      }
      files.append(OutputSet.File(name: name, bytes: bytes))
    }
    return (manifest, files)
  }
}
