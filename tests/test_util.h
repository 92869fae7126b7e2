// Shared test harness: a fixture owning a fresh temporary directory, running
// the pascal executable (PASCAL_CLI) with its exit status, stdout and stderr
// captured, and small file helpers.
#pragma once

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace pascal_test {

struct CliResult {
    int status; // exit status, -1 when the process did not exit normally
    std::string out, err;
};

// The whole file; empty when it cannot be read.
inline std::string slurp(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

inline bool exists(const std::string &path)
{
    struct stat st;
    return stat(path.c_str(), &st) == 0;
}

// Writes `text` to dir/name and returns that path.
inline std::string write_file(const std::string &dir, const std::string &name,
                              const std::string &text)
{
    std::string path = dir + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// A new directory under /tmp; empty on failure.
inline std::string make_temp_dir()
{
    char tmpl[] = "/tmp/pascal-test-XXXXXX";
    return mkdtemp(tmpl) ? tmpl : "";
}

inline void remove_dir(const std::string &dir)
{
    if (!dir.empty())
        std::system(("rm -rf " + dir).c_str());
}

// Runs the shell command `command` with stdout and stderr sent to dir/stdout
// and dir/stderr, and stdin read from dir/stdin holding `input` when given.
inline CliResult run_command(const std::string &dir, const std::string &command,
                             const std::optional<std::string> &input = std::nullopt)
{
    std::string o = dir + "/stdout", e = dir + "/stderr", cmd = command;
    if (input)
        cmd += " <" + write_file(dir, "stdin", *input);
    cmd += " >" + o + " 2>" + e;
    int rc = std::system(cmd.c_str());
    return {WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, slurp(o), slurp(e)};
}

// `pascal ARGS`, its output captured in dir.
inline CliResult run_cli(const std::string &dir, const std::string &args,
                         const std::optional<std::string> &input = std::nullopt)
{
    return run_command(dir, std::string(PASCAL_CLI) + " " + args, input);
}

// Each test gets its own empty `dir`, removed with its contents afterwards.
class TempDirTest : public ::testing::Test {
protected:
    std::string dir;

    void SetUp() override
    {
        dir = make_temp_dir();
        ASSERT_FALSE(dir.empty()) << "cannot create a temporary directory";
    }
    void TearDown() override { remove_dir(dir); }

    // `pascal ARGS`; stdin is inherited.
    CliResult run(const std::string &args) { return run_cli(dir, args); }
    // `pascal ARGS` reading `input` on stdin.
    CliResult run(const std::string &args, const std::string &input)
    {
        return run_cli(dir, args, input);
    }
    // Writes dir/name and returns its path.
    std::string write(const std::string &name, const std::string &text)
    {
        return write_file(dir, name, text);
    }
};

// The names in dir, sorted (to see what a writer left behind).
inline std::vector<std::string> list_dir(const std::string &dir)
{
    std::vector<std::string> names;
    for (const auto &e : std::filesystem::directory_iterator(dir))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

// Reuse distance of request t read off a trace by brute force: distinct
// blocks since the previous request to the same block; -1 for a first one.
inline int64_t naive_rd(const std::vector<int64_t> &trace, size_t t)
{
    std::set<int64_t> seen;
    for (size_t u = t; u-- > 0;) {
        if (trace[u] == trace[t])
            return (int64_t)seen.size();
        seen.insert(trace[u]);
    }
    return -1;
}

// The number after "key": in a one-line JSON object: NaN for null,
// -1e300 when the key is missing.
inline double json_num(const std::string &j, const std::string &key)
{
    std::smatch m;
    std::regex re("\"" + key + "\": (null|[-+0-9.eE]+)");
    if (!std::regex_search(j, m, re))
        return -1e300;
    return m[1] == "null" ? NAN : std::stod(m[1]);
}

// The string after "key": with its quotes, "null", or "<missing>".
inline std::string json_str(const std::string &j, const std::string &key)
{
    std::smatch m;
    std::regex re("\"" + key + "\": (null|\"[^\"]*\")");
    return std::regex_search(j, m, re) ? std::string(m[1]) : "<missing>";
}

// Rows of a CSV file as column name -> text.
inline std::vector<std::map<std::string, std::string>> read_csv(const std::string &path)
{
    std::vector<std::map<std::string, std::string>> rows;
    std::istringstream in(pascal_test::slurp(path));
    std::string line;
    std::vector<std::string> head;
    auto split = [](const std::string &l) {
        std::vector<std::string> f;
        std::stringstream ss(l);
        std::string x;
        while (std::getline(ss, x, ','))
            f.push_back(x);
        return f;
    };
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        if (head.empty()) {
            head = split(line);
            continue;
        }
        auto f = split(line);
        std::map<std::string, std::string> r;
        for (size_t i = 0; i < head.size() && i < f.size(); i++)
            r[head[i]] = f[i];
        rows.push_back(r);
    }
    return rows;
}

} // namespace pascal_test
