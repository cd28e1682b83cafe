// Every command uses the command line's shared parts (arguments, exit statuses, terminal-safe
// output, the store's location): imported once here for the whole target, so that moving them
// into DeskCLI (for DeskBench to share) left the commands' own files as they were.
@_exported import DeskCLI
// …and the catalogue every command's words come from (`tr`, `trCount`).
@_exported import DeskText
