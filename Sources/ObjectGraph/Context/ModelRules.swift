/// Whether the model's rules are being checked already, so the validation defaults a program's
/// overrides call through `super` leave them out instead of reporting them twice.
enum ModelRules {
    /// Whether the code running now has checked the model's rules already: a save (for every
    /// object, in one pass) or a `validateFor…()` default (before the per-key validators).
    @TaskLocal static var areChecked = false
}
