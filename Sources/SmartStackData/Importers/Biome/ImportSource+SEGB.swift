import SmartStackBase
extension ImportSource {
  /// The source of a Biome import of `path` (a SEGB file or a folder of them): no text,
  /// container `.segb`, named `path`. `BiomeImporter` reads the files itself, one at a
  /// time; this value only names the input in the import's summary.
  public static func segb(path: String) -> ImportSource {
    ImportSource(bytes: [], range: 0..<0, file: path, container: .segb, member: nil)
  }
}
