import SmartStackBase

/// How a people-sharded batch (`batch --shard K/N --people-block SIZE`) cuts its cells
/// into units (docs/batch.md, "People shards").
///
/// The units of an experiment, in order: every cell in cell order; a cell whose source
/// has more than `size` people gives one unit per block of `size` consecutive people (in
/// the source's person order: a log's plan, a scenario's people; the last block
/// shorter), every other cell one unit (the whole cell). Shard `K/N` runs the units
/// whose position in that order is `≡ K − 1 (mod N)`. The layout depends only on the
/// outline (which a journal holds) and `size`, never on `--jobs` or on timing, so every
/// shard, `--resume` and `merge` agree on it.
///
/// Why a block runs alone with the numbers of a whole run: a log's people are replayed,
/// and a scenario's simulated, one after the other, each through a fresh copy of the
/// strategy seeded by (seed, replicate, strategy, person index), a scenario's person's
/// world drawn from (seed, replicate, person index) alone
/// (`LogSource.run(_:replicate:seed:people:)`, `ScenarioSource.run(_:replicate:seed:people:)`).
/// A source of another kind keeps whole cells.
public struct PeopleBlocks: Sendable, Hashable, CustomStringConvertible {
  /// The source kinds whose cells are cut into blocks.
  public static let kinds = ["log", "scenario"]

  /// People per block (>= 1).
  public var size: Int

  public init?(size: Int) {
    guard size >= 1 else { return nil }
    self.size = size
  }

  public var description: String { "\(size)" }

  /// Whether cells of `source` are cut into blocks.
  public func splits(_ source: ExperimentOutline.Source) -> Bool {
    Self.kinds.contains(source.kind) && source.statistics.people > size
  }

  /// The blocks of people of a cell of `source`: nil when its cells stay whole.
  public func blocks(of source: ExperimentOutline.Source) -> [Range<Int>]? {
    guard splits(source) else { return nil }
    let people = source.statistics.people
    return stride(from: 0, to: people, by: size).map { $0..<min($0 + size, people) }
  }

  /// The units of `outline`, in order (see the type's documentation).
  public func units(_ outline: ExperimentOutline) -> [WorkUnit] {
    let blocks = outline.sources.map { self.blocks(of: $0) }
    var units: [WorkUnit] = []
    for index in 0..<outline.cellCount {
      let cell = outline.cell(index)
      if let ranges = blocks[cell.source] {
        units += ranges.map { WorkUnit(cell: index, people: $0) }
      } else {
        units.append(WorkUnit(cell: index, people: nil))
      }
    }
    return units
  }

  /// The units of `outline` that `shard` runs, in order.
  public func units(_ outline: ExperimentOutline, shard: Shard) -> [WorkUnit] {
    units(outline).enumerated().filter { shard.contains($0.offset) }.map(\.element)
  }
}

/// A unit of a batch's work: a whole cell (`people` nil), or the people `people` (indices
/// in the source's person order) of a cell (`PeopleBlocks`).
public struct WorkUnit: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The cell's index in expansion order.
  public var cell: Int
  public var people: Range<Int>?

  public init(cell: Int, people: Range<Int>?) {
    self.cell = cell
    self.people = people
  }

  /// By cell, then by first person (a whole cell first).
  public static func < (a: WorkUnit, b: WorkUnit) -> Bool {
    (a.cell, a.people?.lowerBound ?? -1) < (b.cell, b.people?.lowerBound ?? -1)
  }

  /// `cell 12` or `cell 12 people 100..<200`.
  public var description: String {
    guard let people else { return "cell \(cell)" }
    return "cell \(cell) people \(people.lowerBound)..<\(people.upperBound)"
  }
}
