/// Each distinct raw `parameters` text a reader has met, with the set id it was given (-1
/// for a CSV text that is malformed): how the readers decode a text once however many rows
/// repeat it, when the sink lets them keep texts (`DonationSink.cachesParameterTexts`). The
/// CSV reader keeps its `parameters` fields, the JSON Lines fast path its objects as
/// written. Texts are compared as bytes: the same pairs written differently are two texts,
/// each decoded once, that get the same set.
///
/// Use: `set(of:)`; when it is nil, decode the text and give its set id to `keep(_:)`
/// before the next `set(of:)`.
struct ParameterTextCache {
  /// The texts, with dense ids in first-use order; `sets[id]` is text `id`'s set.
  private var texts = Interner()
  private var sets: [Int32] = []

  /// The set id kept for `text`, or nil when the text is new: it is then remembered, and
  /// its set id must be given to `keep(_:)` next. O(`text.count`) expected.
  mutating func set(of text: UnsafeBufferPointer<UInt8>) -> Int32? {
    let id = Int(texts.intern(text))
    if id < sets.count { return sets[id] }
    return nil
  }

  /// Keeps `set` for the text `set(of:)` last found new.
  mutating func keep(_ set: Int32) {
    assert(sets.count == texts.count - 1, "keep(_:) follows a set(of:) that found a new text")
    sets.append(set)
  }
}
