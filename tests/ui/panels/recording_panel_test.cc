// The recording panel's files without a window: the recordings of the output folder listed
// newest first with the newest offered to Play, a path the user typed kept, and a recording's
// end confirmed by a toast that names the file, which Play then offers.
#include "ui/panels/recording_panel.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "input/teleop_csv.h"

namespace contactlab {
namespace {

namespace fs = std::filesystem;

fs::path Recordings() {
  const fs::path dir =
      fs::temp_directory_path() / ("contactlab_recording_panel_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto now = fs::file_time_type::clock::now();
  // Named against their order in time: the chooser goes by time.
  for (const auto& [name, age_s] :
       {std::pair{"contactlab_teleop_1.csv", 30}, std::pair{"contactlab_teleop_3.csv", 90},
        std::pair{"contactlab_teleop_2.csv", 60}}) {
    std::ofstream(dir / name) << kTeleopCsvHeader << "\n0,0,0,0,0,0,0,1\n";
    fs::last_write_time(dir / name, now - std::chrono::seconds(age_s));
  }
  std::ofstream(dir / "contactlab_contacts_1.csv") << "t,body_a,body_b\n";  // an export
  return dir;
}

TEST(RecordingPanel, TheChooserListsTheRecordingsNewestFirstAndOffersTheNewest) {
  const fs::path dir = Recordings();
  RecordingPanelState state;
  ListRecordings(dir.string(), &state);
  EXPECT_TRUE(state.listed);
  EXPECT_EQ(state.recordings,
            (std::vector<std::string>{(dir / "contactlab_teleop_1.csv").string(),
                                      (dir / "contactlab_teleop_2.csv").string(),
                                      (dir / "contactlab_teleop_3.csv").string()}));
  EXPECT_EQ(std::string(state.replay_path), (dir / "contactlab_teleop_1.csv").string());

  RecordingPanelState typed;
  std::snprintf(typed.replay_path, sizeof typed.replay_path, "%s", "mine.csv");
  ListRecordings(dir.string(), &typed);
  EXPECT_EQ(std::string(typed.replay_path), "mine.csv");  // what the user typed stays

  RecordingPanelState none;
  ListRecordings((dir / "missing").string(), &none);
  EXPECT_TRUE(none.recordings.empty());
  EXPECT_EQ(std::string(none.replay_path), "");
  fs::remove_all(dir);
}

// Play with an empty path does not silently do nothing: it says why.
TEST(RecordingPanel, PlayWithoutAFileSaysWhy) {
  RecordingPanelState state;
  EXPECT_EQ(PlayPath("/data/contactlab", &state), "");
  EXPECT_EQ(state.message,
            "nothing to play: no recordings in /data/contactlab yet (Record one), and no path "
            "typed");
  state.recordings = {"/data/contactlab/contactlab_teleop_1.csv"};
  EXPECT_EQ(PlayPath("/data/contactlab", &state), "");
  EXPECT_EQ(state.message, "nothing to play: choose a recording below or type a path");
  std::snprintf(state.replay_path, sizeof state.replay_path, "%s", "mine.csv");
  EXPECT_EQ(PlayPath("/data/contactlab", &state), "mine.csv");
  EXPECT_EQ(state.message, "");
}

TEST(RecordingPanel, ARecordingsEndIsConfirmedAndOfferedToPlay) {
  RecordingPanelState state;
  state.listed = true;
  ToastQueue toasts;
  RecordingView view;
  view.recording = true;
  view.path = "/data/contactlab_teleop_20261127_120000.csv";
  view.rows = 10;
  WatchRecording(view, &state, &toasts);
  EXPECT_TRUE(toasts.toasts().empty());  // under way: nothing saved yet
  view.recording = false;
  view.rows = 0;
  WatchRecording(view, &state, &toasts);
  ASSERT_EQ(toasts.toasts().size(), 1u);
  EXPECT_EQ(toasts.toasts()[0].text, "saved recording " + view.path);
  EXPECT_EQ(toasts.toasts()[0].kind, ToastKind::kInfo);
  EXPECT_EQ(std::string(state.replay_path), view.path);
  EXPECT_FALSE(state.listed);  // read again: the new file is in the chooser
  WatchRecording(view, &state, &toasts);
  EXPECT_EQ(toasts.toasts().size(), 1u);  // once
}

}  // namespace
}  // namespace contactlab
