// The output folder (issue 35, item 5): where the GUI puts the files it saves without a path
// from the user (recordings, F12 screenshots, exports), each under a time-stamped name, so that
// they never land in whatever the working directory happens to be (a source checkout).
// `--output-dir` chooses it, else the GUI's setting, else DefaultOutputDirectory(). Paths the
// user gives explicitly (--record, --log, --screenshot, a panel's path field) are not affected.
#pragma once

#include <ctime>
#include <string>
#include <string_view>
#include <vector>

namespace contactlab {

// $XDG_DATA_HOME/contactlab (an absolute XDG_DATA_HOME only, as the XDG spec asks), else
// $HOME/.local/share/contactlab; "." (the working directory) when neither is set. Not created.
std::string DefaultOutputDirectory();

// Creates `directory` (and its parents) if it is missing and checks that a file can be created
// in it. "" on success, else one line naming the folder and what is wrong. *absolute (optional):
// the folder as an absolute path.
std::string PrepareOutputDirectory(const std::string& directory, std::string* absolute = nullptr);

// "PREFIX_YYYYMMDD_HHMMSS.EXT" for the local time t.
std::string TimestampedName(const std::string& prefix, const std::string& extension, std::time_t t);

// A new file's path in `directory` (prepared: created if missing): TimestampedName, with "_2",
// "_3", … before the extension while that name is taken (two saves within a second). "" and
// *error set when the folder cannot be used.
std::string NewOutputPath(const std::string& directory, const std::string& prefix,
                          const std::string& extension, std::time_t t, std::string* error);

// The regular files of `directory` whose name ends in `extension` (".csv") and, unless
// `first_line` is empty, whose first line is `first_line` (a trailing '\r' ignored): full paths,
// newest first (modification time, then name, descending). Empty when the folder is missing.
std::vector<std::string> ListFilesNewestFirst(const std::string& directory,
                                              std::string_view extension,
                                              std::string_view first_line = {});

}  // namespace contactlab
