import SmartStackBase

extension BatchMerge {
  /// Every cell of `outline` exactly once, from the cells and blocks of people
  /// (`PeopleBlocks`) in `journals`: a cell is either one whole result, or blocks that
  /// together cover its source's people once, combined in person order
  /// (`RunMetrics(blocks:)`), so the cell's metrics are those of one run. Shards cut with
  /// different block sizes (or none) merge as long as every cell is covered once.
  ///
  /// - Returns: the cells in cell order, and for each cell the index in `journals` of
  ///   the journal that holds it (of its first block).
  /// - Throws: `BatchError` naming the cells (or people of cells) found twice, else those
  ///   found in no journal, with the shards not given when the journals name them.
  static func gather(
    _ journals: [(directory: String, contents: Journal.Contents)], outline: ExperimentOutline
  ) throws -> (results: [CellResult], owner: [Int]) {
    var parts = [[(journal: Int, result: CellResult)]](repeating: [], count: outline.cellCount)
    for (j, journal) in journals.enumerated() {
      for r in journal.contents.cells { parts[r.cell.index].append((j, r)) }
    }
    var results: [CellResult] = []
    var owner = [Int](repeating: -1, count: outline.cellCount)
    var duplicates: [String] = []
    var missing: [String] = []
    var missingCells = 0
    for index in 0..<outline.cellCount {
      let cell = outline.cell(index)
      let runID = outline.runID(cell)
      let found = parts[index].sorted { $0.result.unit < $1.result.unit }
      guard let first = found.first else {
        missing.append(runID)
        missingCells += 1
        continue
      }
      func file(_ part: (journal: Int, result: CellResult)) -> String { journals[part.journal].contents.file }
      owner[index] = first.journal
      if first.result.people == nil {
        if found.count > 1 { duplicates.append("\(runID) (in \(file(first)) and \(file(found[1])))") }
        results.append(first.result)
        continue
      }
      // Blocks: in person order from 0, each starting where the previous ended.
      var next = 0
      var (overlap, gap) = (false, false)
      for (k, part) in found.enumerated() {
        let people = part.result.people!
        if people.lowerBound < next {
          duplicates.append(
            "\(runID) people \(people.lowerBound)..<\(min(next, people.upperBound)) (in \(file(found[k - 1])) and \(file(part)))")
          overlap = true
        } else if people.lowerBound > next {
          missing.append("\(runID) people \(next)..<\(people.lowerBound)")
          gap = true
        }
        next = max(next, people.upperBound)
      }
      let total = outline.sources[cell.source].statistics.people
      if next < total {
        missing.append("\(runID) people \(next)..<\(total)")
        gap = true
      }
      if gap { missingCells += 1 }
      if !overlap && !gap {
        results.append(CellResult(cell: cell, metrics: RunMetrics(blocks: found.map(\.result.metrics))))
      }
    }
    if !duplicates.isEmpty {
      throw BatchError(
        "\(duplicates.count) cell(s) appear in more than one journal, e.g. "
          + duplicates.prefix(5).joined(separator: "; ") + "; merge each shard's folder once")
    }
    if !missing.isEmpty {
      let shards = Set(journals.compactMap { $0.contents.shard?.count })
      var hint = ""
      if let n = shards.first, shards.count == 1 {
        let present = Set(journals.compactMap { $0.contents.shard?.index })
        let absent = (1...n).filter { !present.contains($0) }.map { "\($0)/\(n)" }
        if !absent.isEmpty { hint = " (shards not given: " + absent.joined(separator: ", ") + ")" }
      }
      throw BatchError(
        "\(missingCells) of \(outline.cellCount) cells are in no journal\(hint), e.g. "
          + missing.prefix(10).joined(separator: ", ")
          + ": run the missing shards (or resume the unfinished ones) first")
    }
    return (results, owner)
  }
}
