# Homebrew formula: `brew install --HEAD` through a tap (docs/install.md). It builds the release binary with the
# toolchain of the Xcode in use (Swift 6.2 or later) and installs what `make install` installs: the binary, its
# fixtures and the web app's script, the manual page, and the bash, zsh and fish completions.
# A tagged release adds `url`, `sha256` and `version` above `head`; the macOS CI job installs a tarball of the commit
# it tests that way, through a local tap (.github/workflows/ci.yml).
class ExpenseLog < Formula
  desc "Household expense log (家計簿) kept in a Google Sheet, from the shell"
  homepage "https://github.com/expense-log/expense-log"
  head "https://github.com/expense-log/expense-log.git", branch: "main"

  depends_on xcode: ["26.0", :build]
  depends_on macos: :sequoia

  def install
    # SwiftPM sandboxes its manifest with sandbox-exec, which cannot run inside Homebrew's own sandbox.
    system "swift", "build", "--disable-sandbox", "-c", "release", "--product", "expense-log"
    system "make", "install-files", "PREFIX=#{prefix}", "BIN=#{buildpath}/.build/release/expense-log", "STRIP="
  end

  test do
    assert_match "expense-log", shell_output("#{bin}/expense-log --version")
    assert_match "TOTAL", shell_output("#{bin}/expense-log --env dummy fetch 2024-01")
    assert_path_exists share/"zsh/site-functions/_expense-log"
  end
end
