#pragma once
// The one collective of every call. Each rank runs its first phase (the argument checks, then
// local work that writes no output) and the ranks exchange what came of it in one MPI_Allgather:
// a status byte and a fixed-size payload, as bytes (no MPI datatype per type). A failure on any
// rank is then thrown on every rank before anything is written, an argument error as
// pscan::invalid_argument naming the rank: a bad argument never leaves the others waiting.

#include <pscan/error.hpp>

#include <mpi.h>

#include <cstddef>
#include <exception>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace pscan::distributed_backend::detail {

// The payload of an exchange that only carries the checks' outcome.
struct nothing {};

// Throws std::runtime_error for an MPI call that returned an error (only reachable where the
// communicator's error handler returns errors instead of aborting, MPI's default).
inline void check_mpi(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string("pscan::distributed: ") + call +
                           " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

// This rank's place in the communicator.
struct place {
  int rank;
  int size;
};

inline place place_in(MPI_Comm comm) {
  place where{};
  check_mpi(MPI_Comm_rank(comm, &where.rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &where.size), "MPI_Comm_size");
  return where;
}

// Values cross ranks as their bytes, into default-constructed objects.
template <class T>
constexpr bool transferable() {
  constexpr bool ok = std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>;
  static_assert(ok,
                "pscan::distributed: values and keys cross ranks as bytes: their types must be "
                "trivially copyable and default-constructible");
  return ok;
}

enum class outcome : unsigned char { ok, invalid_argument, failed };

template <class Payload>
struct record {
  outcome state;
  Payload payload;
};

// "rank 2 of 4", "ranks 1, 3 of 4": the ranks whose first phase ended in `state`; empty if none.
template <class Payload>
std::string ranks_with(const std::vector<record<Payload>>& all, outcome state) {
  std::string names;
  int count = 0;
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (all[r].state != state) continue;
    names += (count++ == 0 ? "" : ", ") + std::to_string(r);
  }
  if (count == 0) return names;
  return (count == 1 ? "rank " : "ranks ") + names + " of " + std::to_string(all.size());
}

// Runs phase() on this rank (it returns this rank's Payload, or throws) and gathers every rank's
// payload, in rank order. Throws on every rank when any phase threw: on the rank that threw, its
// own exception (an invalid_argument also naming the rank); on the others, invalid_argument for an
// argument error elsewhere, else std::runtime_error, each naming the ranks.
template <class Payload, class Phase>
std::vector<Payload> exchange(MPI_Comm comm, const place& where, const char* algorithm,
                              Phase&& phase) {
  static_assert(std::is_trivially_copyable_v<Payload>);
  record<Payload> mine{};
  std::exception_ptr error;
  try {
    mine.payload = phase();
  } catch (const invalid_argument&) {
    mine.state = outcome::invalid_argument;
    error = std::current_exception();
  } catch (...) {
    mine.state = outcome::failed;
    error = std::current_exception();
  }
  std::vector<record<Payload>> all(static_cast<std::size_t>(where.size));
  constexpr int bytes = static_cast<int>(sizeof(record<Payload>));
  check_mpi(MPI_Allgather(&mine, bytes, MPI_BYTE, all.data(), bytes, MPI_BYTE, comm),
            "MPI_Allgather");
  const std::string untouched = " (no rank wrote any output)";
  if (error) {
    try {
      std::rethrow_exception(error);
    } catch (const invalid_argument& e) {
      throw invalid_argument(std::string(e.what()) + " on rank " + std::to_string(where.rank) +
                             " of " + std::to_string(where.size) + untouched);
    }
  }
  if (const std::string bad = ranks_with(all, outcome::invalid_argument); !bad.empty()) {
    throw invalid_argument(std::string(algorithm) + ": invalid argument on " + bad + untouched);
  }
  if (const std::string bad = ranks_with(all, outcome::failed); !bad.empty()) {
    throw std::runtime_error(std::string(algorithm) + ": failed on " + bad + untouched);
  }
  std::vector<Payload> payloads;
  payloads.reserve(all.size());
  for (const auto& r : all) payloads.push_back(r.payload);
  return payloads;
}

}  // namespace pscan::distributed_backend::detail
