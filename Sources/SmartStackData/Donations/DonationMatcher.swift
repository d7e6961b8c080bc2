import SmartStackBase

/// For every donation of a log, the widget instances it matches (DESIGN.md §4), worked out
/// once per distinct (kind, intent, parameter set) triple: the engine's fast form of
/// `IntentCatalog.matches(kind:intent:parameters:instance:)`.
///
/// Each row gets a signature id (its triple's index, in order of first appearance in the
/// log), and each signature the ascending list of matching instance indices, stored flat.
/// The answers are exactly those of `IntentCatalog.matches` for `log[row]`.
public struct DonationMatcher: Sendable {
  /// The instances matched against; answers are indices into this array.
  public let instances: [WidgetInstance]
  public let catalog: IntentCatalog
  /// The signature of each row.
  public let signatures: [Int32]
  /// Signature `s` matches `matchList[matchStarts[s] ..< matchStarts[s + 1]]`.
  private let matchStarts: [Int]
  private let matchList: [Int32]

  /// Precomputes the matches of every row of `log` against `instances`.
  ///
  /// - Complexity: O(n) expected for n rows, plus O(s·m·c) for s distinct signatures,
  ///   m instances and c the cost of one `IntentCatalog.matches` call.
  public init(log: DonationLog, instances: [WidgetInstance], catalog: IntentCatalog) {
    struct Triple: Hashable {
      var kind: Int32
      var intent: Int32
      var parameters: Int32
    }
    self.instances = instances
    self.catalog = catalog
    var ids: [Triple: Int32] = [:]  // looked up only; ids come from row order
    var triples: [Triple] = []
    var signatures = [Int32](repeating: 0, count: log.count)
    for row in 0..<log.count {
      let triple = Triple(
        kind: log.kinds[row], intent: log.intents[row], parameters: log.parameterSets[row])
      if let id = ids[triple] {
        signatures[row] = id
      } else {
        let id = Int32(truncatingIfNeeded: triples.count)
        ids[triple] = id
        triples.append(triple)
        signatures[row] = id
      }
    }
    var starts = [0]
    var list: [Int32] = []
    for triple in triples {
      let kind = log.kindNames[triple.kind]
      let intent = triple.intent < 0 ? nil : log.intentNames[triple.intent]
      let parameters = log.parameters(ofSet: triple.parameters)
      for (index, instance) in instances.enumerated()
      where catalog.matches(kind: kind, intent: intent, parameters: parameters, instance: instance)
      {
        list.append(Int32(truncatingIfNeeded: index))
      }
      starts.append(list.count)
    }
    self.signatures = signatures
    self.matchStarts = starts
    self.matchList = list
  }

  /// The number of distinct (kind, intent, parameter set) triples in the log.
  public var signatureCount: Int { matchStarts.count - 1 }

  /// The indices (ascending) of the instances row `donation` matches. O(1).
  public func instances(matching donation: Int) -> ArraySlice<Int32> {
    let s = Int(signatures[donation])
    return matchList[matchStarts[s]..<matchStarts[s + 1]]
  }

  /// Whether row `donation` matches instance `instance`. O(m) for m matches of the row.
  public func matches(donation: Int, instance: Int) -> Bool {
    instances(matching: donation).contains(Int32(truncatingIfNeeded: instance))
  }
}
