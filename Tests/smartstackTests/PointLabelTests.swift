import Foundation
import Testing

private let tiny = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Datasets/experiments/tiny.json").path

/// The rows of a CSV file without quoted cells, split on commas.
private func rows(_ url: URL) throws -> (header: [String], rows: [[String]]) {
  let lines = String(decoding: try Data(contentsOf: url), as: UTF8.self).split(separator: "\n")
  let split = lines.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
  return (split[0], Array(split.dropFirst()))
}

/// A sweep's points each have one label (issue 29 item 12): `summary.csv` and
/// `paired.csv` carry it in their `label` column, and the console tables use it.
@Suite("strategy point labels of a sweep")
struct PointLabelTests {
  static let points = ["mfu", "hour-of-week:half-life-days=3", "hour-of-week:half-life-days=7", "hour-of-week:half-life-days=14"]

  @Test func everySweepPointHasItsOwnLabelInSummaryPairedAndTheTables() throws {
    let folder = try CLI.temporaryFolder()
    let r = try CLI.run(
      ["batch", tiny, "--strategy", Self.points.joined(separator: ","), "--replicates", "1", "--out", "out"],
      in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    for (name, baseline) in [("summary.csv", false), ("paired.csv", true)] {
      let table = try rows(folder.appendingPathComponent("out/" + name))
      let label = try #require(table.header.firstIndex(of: "label"), "\(name): \(table.header)")
      let source = try #require(table.header.firstIndex(of: "source"))
      let metric = try #require(table.header.firstIndex(of: "metric"))
      let labels = table.rows.map { $0[label] }
      var seen: [String] = []
      for l in labels where !seen.contains(l) { seen.append(l) }
      #expect(seen == (baseline ? Array(Self.points.dropFirst()) : Self.points), "\(name)")
      // One row per (source, label, metric): a pivot on the label averages nothing.
      let keys = table.rows.map { [$0[source], $0[label], $0[metric]] }
      #expect(Set(keys).count == keys.count, "\(name)")
    }
    for point in Self.points { #expect(r.stdout.contains(point), "\(r.stdout)") }
  }
}
