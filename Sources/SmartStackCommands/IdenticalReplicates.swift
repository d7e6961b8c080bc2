import Foundation
import SmartStackKit

/// Replicates that are one result repeated: a replay of a log gives the same run in every
/// replicate unless a strategy draws at random, so `--replicates 5` on a log with
/// deterministic strategies writes 5 identical rows per strategy to `runs.csv`, which
/// look like 5 independent results. `batch` says so after the run (issue 29, item 5),
/// found from what it wrote, not guessed from the strategies.
enum IdenticalReplicates {
  /// The sources of `runs`, in the order of their first row, whose replicates (two or
  /// more) gave the same values in every column but the run's id, replicate and seed, for
  /// every strategy point; with their replicate counts.
  ///
  /// - Complexity: O(rows × columns). The dictionaries are only looked up.
  static func sources(in runs: CSVTable) throws -> [(source: String, replicates: Int)] {
    let source = try runs.column("source")
    let strategy = try runs.column("strategy")
    let parameters = try runs.column("parameters")
    let own = try [runs.column("replicate"), runs.column("seed")] + [runs.header.firstIndex(of: "run_id")].compactMap { $0 }
    var first: [String: (values: [String], count: Int)] = [:]
    var sources: [String] = []
    var same: [String: Bool] = [:]
    var replicates: [String: Int] = [:]
    for row in runs.rows where row.count == runs.header.count {
      let name = row[source]
      let values = row.indices.filter { !own.contains($0) }.map { row[$0] }
      let key = name + "\u{0}" + row[strategy] + "\u{0}" + row[parameters]
      if same[name] == nil {
        sources.append(name)
        same[name] = true
      }
      if let seen = first[key] {
        first[key] = (seen.values, seen.count + 1)
        if seen.values != values { same[name] = false }
        replicates[name] = max(replicates[name] ?? 1, seen.count + 1)
      } else {
        first[key] = (values, 1)
      }
    }
    return sources.compactMap { name in
      guard same[name] == true, let n = replicates[name], n > 1 else { return nil }
      return (name, n)
    }
  }

  /// The note `batch` prints for each such source of the run in `directory` (none when
  /// its `runs.csv` cannot be read: the run itself said why).
  static func notes(directory: String) -> [String] {
    let path = (directory as NSString).appendingPathComponent("runs.csv")
    guard let bytes = try? FileIO.readBytes(path),
      let runs = try? CSVTable.read(bytes: bytes, file: path),
      let found = try? sources(in: runs)
    else { return [] }
    return found.map {
      "\($0.source): its \($0.replicates) replicates gave identical rows for every strategy (a replay of a log is the same every time unless a strategy draws at random): runs.csv repeats one result \($0.replicates) times, not \($0.replicates) independent ones; use --replicates 1 (the people are the units of the CIs)"
    }
  }
}
