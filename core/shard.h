// Being written (issue 3).
#ifndef TESSERA_CORE_SHARD_H_
#define TESSERA_CORE_SHARD_H_
#endif  // TESSERA_CORE_SHARD_H_
