/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* tessera/experimental/checkpoint.h: a checkpoint's metadata through the C ABI.
 * Every file is written byte by byte into a fresh directory, with the layouts
 * of tests/core/checkpoint_safetensors_test.cc and checkpoint_gguf_test.cc,
 * so each expected offset and size can be checked by hand. */
#define _XOPEN_SOURCE 700

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "tessera/tessera.h"

static char dir[256];
static char paths[64][320];
static size_t num_paths;

/* The path of `name` in the test's directory, remembered for removal. */
static const char* path_of(const char* name) {
  char path[sizeof paths[0]];
  size_t i;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  for (i = 0; i < num_paths; ++i) {
    if (strcmp(paths[i], path) == 0) return paths[i];
  }
  if (num_paths == HARNESS_COUNT(paths)) return "(too many files)";
  return strcpy(paths[num_paths++], path);
}

static const char* write_file(const char* name, const void* bytes, size_t size) {
  const char* path = path_of(name);
  FILE* f = fopen(path, "wb");
  if (f == NULL) return path;
  fwrite(bytes, 1, size, f);
  fclose(f);
  return path;
}

/* A file assembled field by field, little-endian. */
typedef struct bytes {
  unsigned char data[2048];
  size_t size;
} bytes;

static void put(bytes* b, uint64_t value, size_t width) {
  size_t i;
  for (i = 0; i < width; ++i) b->data[b->size++] = (unsigned char)(value >> (8 * i));
}
static void put_text(bytes* b, const char* text) {
  memcpy(b->data + b->size, text, strlen(text));
  b->size += strlen(text);
}
static void put_zeros(bytes* b, size_t n) {
  memset(b->data + b->size, 0, n);
  b->size += n;
}
/* A GGUF string: u64 length, then the bytes. */
static void put_gguf_string(bytes* b, const char* text) {
  put(b, strlen(text), 8);
  put_text(b, text);
}

/* A safetensors file: the header's length, the header, `data_size` zero bytes. */
static const char* write_safetensors(const char* name, const char* header, size_t data_size) {
  bytes b = {{0}, 0};
  put(&b, strlen(header), 8);
  put_text(&b, header);
  put_zeros(&b, data_size);
  return write_file(name, b.data, b.size);
}

/* 144 header bytes: tensors at absolute offsets 152 and 176; 178 bytes in all. */
static const char* const kSafetensorsHeader =
    "{\"__metadata__\":{\"format\":\"pt\"},"
    "\"w\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,24]},"
    "\"s\":{\"dtype\":\"F4\",\"shape\":[2,2],\"data_offsets\":[24,26]}}";

static tessera_checkpoint* open_safetensors(void) {
  tessera_error* err = NULL;
  tessera_checkpoint* checkpoint =
      tessera_checkpoint_open(write_safetensors("one.safetensors", kSafetensorsHeader, 26), &err);
  if (err != NULL) {
    harness_fail(__FILE__, __LINE__, "open: %s", tessera_error_message(err));
    tessera_error_destroy(err);
  }
  return checkpoint;
}

/* checkpoint_gguf_test.cc's ReadsTensorsWithShapeOutermostFirstAndAbsoluteOffsets:
 * a 193-byte header, the data from 224, 1408 bytes in all. */
static const char* write_gguf(const char* name) {
  bytes b = {{0}, 0};
  put_text(&b, "GGUF");
  put(&b, 3, 4);
  put(&b, 2, 8); /* tensors */
  put(&b, 1, 8); /* key/values */
  put_gguf_string(&b, "general.architecture");
  put(&b, 8, 4); /* string */
  put_gguf_string(&b, "llama");
  put_gguf_string(&b, "token_embd.weight");
  put(&b, 2, 4);
  put(&b, 3, 8);
  put(&b, 2, 8);
  put(&b, 0, 4); /* F32 */
  put(&b, 0, 8);
  put_gguf_string(&b, "blk.0.attn_q.weight");
  put(&b, 3, 4);
  put(&b, 256, 8);
  put(&b, 4, 8);
  put(&b, 2, 8);
  put(&b, 12, 4); /* Q4_K */
  put(&b, 32, 8);
  put_zeros(&b, 224 - b.size + 32 + 8 * 144);
  return write_file(name, b.data, b.size);
}

static void a_safetensors_file_is_one_file_in_the_safetensors_format(void) {
  tessera_error* err = NULL;
  tessera_checkpoint* checkpoint = open_safetensors();
  ASSERT_NOT_NULL(checkpoint);
  ASSERT_STREQ("safetensors", tessera_checkpoint_format(checkpoint, &err));
  ASSERT_EQ(1, tessera_checkpoint_num_files(checkpoint, &err));
  ASSERT_STREQ(path_of("one.safetensors"), tessera_checkpoint_file_path(checkpoint, 0, &err));
  ASSERT_EQ(178, tessera_checkpoint_file_size(checkpoint, 0, &err));
  ASSERT_OK(err);
  tessera_checkpoint_destroy(checkpoint);
}

static void safetensors_tensors_keep_the_header_order_with_absolute_offsets(void) {
  tessera_error* err = NULL;
  int64_t shape[4] = {0};
  tessera_checkpoint* checkpoint = open_safetensors();
  ASSERT_NOT_NULL(checkpoint);
  ASSERT_EQ(2, tessera_checkpoint_num_tensors(checkpoint, &err));
  ASSERT_STREQ("w", tessera_checkpoint_tensor_name(checkpoint, 0, &err));
  ASSERT_STREQ("F32", tessera_checkpoint_tensor_element_type(checkpoint, 0, &err));
  ASSERT_EQ(1, tessera_checkpoint_tensor_block_num_elements(checkpoint, 0, &err));
  ASSERT_EQ(4, tessera_checkpoint_tensor_block_size(checkpoint, 0, &err));
  ASSERT_EQ(2, tessera_checkpoint_tensor_shape(checkpoint, 0, shape, 4, &err));
  ASSERT_EQ(2, shape[0]);
  ASSERT_EQ(3, shape[1]);
  ASSERT_EQ(0, tessera_checkpoint_tensor_file_index(checkpoint, 0, &err));
  ASSERT_EQ(152, tessera_checkpoint_tensor_offset(checkpoint, 0, &err));
  ASSERT_EQ(24, tessera_checkpoint_tensor_size(checkpoint, 0, &err));
  ASSERT_STREQ("s", tessera_checkpoint_tensor_name(checkpoint, 1, &err));
  ASSERT_EQ(176, tessera_checkpoint_tensor_offset(checkpoint, 1, &err));
  ASSERT_EQ(2, tessera_checkpoint_tensor_size(checkpoint, 1, &err));
  ASSERT_OK(err);
  tessera_checkpoint_destroy(checkpoint);
}

static void a_sub_byte_type_is_a_block_of_elements(void) {
  tessera_error* err = NULL;
  tessera_checkpoint* checkpoint = open_safetensors();
  ASSERT_NOT_NULL(checkpoint);
  ASSERT_STREQ("F4", tessera_checkpoint_tensor_element_type(checkpoint, 1, &err));
  ASSERT_EQ(2, tessera_checkpoint_tensor_block_num_elements(checkpoint, 1, &err));
  ASSERT_EQ(1, tessera_checkpoint_tensor_block_size(checkpoint, 1, &err));
  ASSERT_OK(err);
  tessera_checkpoint_destroy(checkpoint);
}

static void safetensors_metadata_is_listed_and_looked_up_by_key(void) {
  tessera_error* err = NULL;
  tessera_checkpoint* checkpoint = open_safetensors();
  ASSERT_NOT_NULL(checkpoint);
  ASSERT_EQ(1, tessera_checkpoint_num_metadata_entries(checkpoint, &err));
  ASSERT_STREQ("format", tessera_checkpoint_metadata_key(checkpoint, 0, &err));
  ASSERT_STREQ("pt", tessera_checkpoint_metadata_value(checkpoint, 0, &err));
  ASSERT_STREQ("pt", tessera_checkpoint_metadata_lookup(checkpoint, "format", &err));
  ASSERT_OK(err);
  tessera_checkpoint_destroy(checkpoint);
}

static void a_tensor_is_looked_up_by_name(void) {
  tessera_error* err = NULL;
  size_t index = 9;
  tessera_checkpoint* checkpoint = open_safetensors();
  ASSERT_NOT_NULL(checkpoint);
  ASSERT_TRUE(tessera_checkpoint_tensor_lookup(checkpoint, "s", &index, &err));
  ASSERT_OK(err);
  ASSERT_EQ(1, index);
  tessera_checkpoint_destroy(checkpoint);
}

static void an_unknown_tensor_name_is_not_found_naming_it(void) {
  tessera_error* err = NULL;
  size_t index = 9;
  tessera_checkpoint* checkpoint = open_safetensors();
  ASSERT_NOT_NULL(checkpoint);
  ASSERT_FALSE(tessera_checkpoint_tensor_lookup(checkpoint, "v", &index, &err));
  ASSERT_EQ(TESSERA_NOT_FOUND, tessera_error_code(err));
  ASSERT_STREQ("No tensor named 'v' in the checkpoint", tessera_error_message(err));
  ASSERT_EQ(9, index);
  tessera_error_destroy(err);
  tessera_checkpoint_destroy(checkpoint);
}

static void an_unknown_metadata_key_is_not_found_naming_it(void) {
  tessera_error* err = NULL;
  tessera_checkpoint* checkpoint = open_safetensors();
  ASSERT_NOT_NULL(checkpoint);
  ASSERT_NULL(tessera_checkpoint_metadata_lookup(checkpoint, "version", &err));
  ASSERT_EQ(TESSERA_NOT_FOUND, tessera_error_code(err));
  ASSERT_STREQ("No metadata entry with key 'version' in the checkpoint", tessera_error_message(err));
  tessera_error_destroy(err);
  tessera_checkpoint_destroy(checkpoint);
}

static void a_tensor_index_at_the_count_is_out_of_range(void) {
  tessera_error* err = NULL;
  tessera_checkpoint* checkpoint = open_safetensors();
  ASSERT_NOT_NULL(checkpoint);
  ASSERT_NULL(tessera_checkpoint_tensor_name(checkpoint, 2, &err));
  ASSERT_EQ(TESSERA_OUT_OF_RANGE, tessera_error_code(err));
  ASSERT_STREQ("Argument 'index' is 2; expected less than 2 (the checkpoint's tensors)", tessera_error_message(err));
  tessera_error_destroy(err);
  tessera_checkpoint_destroy(checkpoint);
}

static void a_null_checkpoint_is_invalid_argument_naming_it(void) {
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_checkpoint_num_tensors(NULL, &err));
  ASSERT_EQ(TESSERA_INVALID_ARGUMENT, tessera_error_code(err));
  ASSERT_STREQ("Argument 'checkpoint' is NULL; expected a valid pointer", tessera_error_message(err));
  tessera_error_destroy(err);
}

static void a_sharded_index_reads_every_file_in_name_order(void) {
  tessera_error* err = NULL;
  tessera_checkpoint* checkpoint;
  char expected[320];
  write_safetensors("model-00001-of-00002.safetensors",
                    "{\"__metadata__\":{\"format\":\"pt\"},\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", 4);
  write_safetensors("model-00002-of-00002.safetensors",
                    "{\"__metadata__\":{\"format\":\"pt\"},\"a\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[0,2]}}", 2);
  {
    const char* index =
        "{\"metadata\":{\"total_size\":6},\"weight_map\":{\"a\":\"model-00002-of-00002.safetensors\","
        "\"b\":\"model-00001-of-00002.safetensors\"}}";
    checkpoint = tessera_checkpoint_open(write_file("model.safetensors.index.json", index, strlen(index)), &err);
  }
  ASSERT_OK(err);
  ASSERT_NOT_NULL(checkpoint);
  ASSERT_EQ(2, tessera_checkpoint_num_files(checkpoint, &err));
  snprintf(expected, sizeof expected, "%s/model-00001-of-00002.safetensors", dir);
  ASSERT_STREQ(expected, tessera_checkpoint_file_path(checkpoint, 0, &err));
  ASSERT_EQ(97, tessera_checkpoint_file_size(checkpoint, 0, &err));
  snprintf(expected, sizeof expected, "%s/model-00002-of-00002.safetensors", dir);
  ASSERT_STREQ(expected, tessera_checkpoint_file_path(checkpoint, 1, &err));
  ASSERT_EQ(2, tessera_checkpoint_num_tensors(checkpoint, &err));
  ASSERT_STREQ("b", tessera_checkpoint_tensor_name(checkpoint, 0, &err));
  ASSERT_EQ(0, tessera_checkpoint_tensor_file_index(checkpoint, 0, &err));
  ASSERT_EQ(93, tessera_checkpoint_tensor_offset(checkpoint, 0, &err));
  ASSERT_STREQ("a", tessera_checkpoint_tensor_name(checkpoint, 1, &err));
  ASSERT_EQ(1, tessera_checkpoint_tensor_file_index(checkpoint, 1, &err));
  ASSERT_EQ(92, tessera_checkpoint_tensor_offset(checkpoint, 1, &err));
  ASSERT_EQ(2, tessera_checkpoint_num_metadata_entries(checkpoint, &err));
  ASSERT_STREQ("total_size", tessera_checkpoint_metadata_key(checkpoint, 0, &err));
  ASSERT_STREQ("6", tessera_checkpoint_metadata_value(checkpoint, 0, &err));
  ASSERT_STREQ("format", tessera_checkpoint_metadata_key(checkpoint, 1, &err));
  ASSERT_OK(err);
  tessera_checkpoint_destroy(checkpoint);
}

/* checkpoint_gguf_test.cc's Split: split k of 2 (1-based) holding one F32
 * tensor of 4 elements named tK; the first also says the tensor total. */
static const char* write_gguf_split(const char* name, unsigned k) {
  bytes b = {{0}, 0};
  put_text(&b, "GGUF");
  put(&b, 3, 4);
  put(&b, 1, 8);
  put(&b, k == 1 ? 3 : 2, 8);
  put_gguf_string(&b, "split.no");
  put(&b, 2, 4); /* u16 */
  put(&b, k - 1, 2);
  put_gguf_string(&b, "split.count");
  put(&b, 2, 4);
  put(&b, 2, 2);
  if (k == 1) {
    put_gguf_string(&b, "split.tensors.count");
    put(&b, 5, 4); /* i32 */
    put(&b, 2, 4);
  }
  put_gguf_string(&b, k == 1 ? "t1" : "t2");
  put(&b, 1, 4);
  put(&b, 4, 8);
  put(&b, 0, 4); /* F32 */
  put(&b, 0, 8);
  put_zeros(&b, (32 - b.size % 32) % 32 + 16);
  return write_file(name, b.data, b.size);
}

static void the_first_gguf_split_opens_every_split(void) {
  tessera_error* err = NULL;
  const char* first = write_gguf_split("a-00001-of-00002.gguf", 1);
  const char* second = write_gguf_split("a-00002-of-00002.gguf", 2);
  tessera_checkpoint* checkpoint = tessera_checkpoint_open(first, &err);
  ASSERT_OK(err);
  ASSERT_NOT_NULL(checkpoint);
  ASSERT_EQ(2, tessera_checkpoint_num_files(checkpoint, &err));
  ASSERT_STREQ(first, tessera_checkpoint_file_path(checkpoint, 0, &err));
  ASSERT_EQ(176, tessera_checkpoint_file_size(checkpoint, 0, &err));
  ASSERT_STREQ(second, tessera_checkpoint_file_path(checkpoint, 1, &err));
  ASSERT_EQ(144, tessera_checkpoint_file_size(checkpoint, 1, &err));
  ASSERT_EQ(2, tessera_checkpoint_num_tensors(checkpoint, &err));
  ASSERT_STREQ("t2", tessera_checkpoint_tensor_name(checkpoint, 1, &err));
  ASSERT_EQ(1, tessera_checkpoint_tensor_file_index(checkpoint, 1, &err));
  ASSERT_EQ(128, tessera_checkpoint_tensor_offset(checkpoint, 1, &err));
  ASSERT_EQ(16, tessera_checkpoint_tensor_size(checkpoint, 1, &err));
  ASSERT_STREQ("2", tessera_checkpoint_metadata_lookup(checkpoint, "split.tensors.count", &err));
  ASSERT_OK(err);
  tessera_checkpoint_destroy(checkpoint);
}

static void a_gguf_file_has_its_shapes_outermost_first_and_its_quantized_blocks(void) {
  tessera_error* err = NULL;
  int64_t shape[4] = {0};
  tessera_checkpoint* checkpoint = tessera_checkpoint_open(write_gguf("m.gguf"), &err);
  ASSERT_OK(err);
  ASSERT_NOT_NULL(checkpoint);
  ASSERT_STREQ("gguf", tessera_checkpoint_format(checkpoint, &err));
  ASSERT_EQ(1408, tessera_checkpoint_file_size(checkpoint, 0, &err));
  ASSERT_EQ(2, tessera_checkpoint_num_tensors(checkpoint, &err));
  ASSERT_STREQ("token_embd.weight", tessera_checkpoint_tensor_name(checkpoint, 0, &err));
  ASSERT_EQ(2, tessera_checkpoint_tensor_shape(checkpoint, 0, shape, 4, &err));
  ASSERT_EQ(2, shape[0]);
  ASSERT_EQ(3, shape[1]);
  ASSERT_EQ(224, tessera_checkpoint_tensor_offset(checkpoint, 0, &err));
  ASSERT_EQ(24, tessera_checkpoint_tensor_size(checkpoint, 0, &err));
  ASSERT_STREQ("Q4_K", tessera_checkpoint_tensor_element_type(checkpoint, 1, &err));
  ASSERT_EQ(256, tessera_checkpoint_tensor_block_num_elements(checkpoint, 1, &err));
  ASSERT_EQ(144, tessera_checkpoint_tensor_block_size(checkpoint, 1, &err));
  ASSERT_EQ(3, tessera_checkpoint_tensor_shape(checkpoint, 1, shape, 4, &err));
  ASSERT_EQ(2, shape[0]);
  ASSERT_EQ(4, shape[1]);
  ASSERT_EQ(256, shape[2]);
  ASSERT_EQ(256, tessera_checkpoint_tensor_offset(checkpoint, 1, &err));
  ASSERT_EQ(1152, tessera_checkpoint_tensor_size(checkpoint, 1, &err));
  ASSERT_STREQ("llama", tessera_checkpoint_metadata_lookup(checkpoint, "general.architecture", &err));
  ASSERT_OK(err);
  tessera_checkpoint_destroy(checkpoint);
}

static void a_malformed_gguf_file_is_refused_with_its_file_and_byte(void) {
  tessera_error* err = NULL;
  char expected[400];
  const char* path = write_file("bad.gguf", "GGML\3\0\0\0", 8);
  ASSERT_NULL(tessera_checkpoint_open(path, &err));
  snprintf(expected, sizeof expected, "%s: byte 0: magic is \"GGML\", not \"GGUF\": not a GGUF file", path);
  ASSERT_EQ(TESSERA_INVALID_ARGUMENT, tessera_error_code(err));
  ASSERT_STREQ(expected, tessera_error_message(err));
  tessera_error_destroy(err);
}

/* write_gguf_split puts split.no's value at byte 44. */
static void a_gguf_split_other_than_the_first_is_refused_with_its_file_and_byte(void) {
  tessera_error* err = NULL;
  char expected[400];
  const char* second = write_gguf_split("z-00002-of-00002.gguf", 2);
  ASSERT_NULL(tessera_checkpoint_open(second, &err));
  snprintf(expected, sizeof expected, "%s: byte 44: split.no is 1; give the first split (split.no 0) of the 2",
           second);
  ASSERT_EQ(TESSERA_INVALID_ARGUMENT, tessera_error_code(err));
  ASSERT_STREQ(expected, tessera_error_message(err));
  tessera_error_destroy(err);
}

static void a_duplicate_safetensors_tensor_is_refused_with_its_file_and_byte(void) {
  tessera_error* err = NULL;
  char expected[400];
  const char* path = write_safetensors(
      "dup.safetensors",
      "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},"
      "\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[1,2]}}",
      2);
  ASSERT_NULL(tessera_checkpoint_open(path, &err));
  snprintf(expected, sizeof expected,
           "%s: byte 61: invalid JSON in header: duplicate key \"a\" (first at byte 9)", path);
  ASSERT_EQ(TESSERA_INVALID_ARGUMENT, tessera_error_code(err));
  ASSERT_STREQ(expected, tessera_error_message(err));
  tessera_error_destroy(err);
}

static void a_file_of_no_known_content_or_name_is_invalid_argument_listing_both(void) {
  tessera_error* err = NULL;
  char expected[700];
  static const char kZip[] = "PK\3\4 a zip archive";
  const char* path = write_file("weights.bin", kZip, sizeof kZip - 1);
  ASSERT_NULL(tessera_checkpoint_open(path, &err));
  snprintf(expected, sizeof expected,
           "Argument 'path' is '%s'; expected a checkpoint: its first bytes are none of safetensors (an 8-byte "
           "little-endian header length, then '{'), GGUF (\"GGUF\") or a safetensors index (a JSON object), and "
           "its name ends in none of .index.json, .safetensors or .gguf",
           path);
  ASSERT_EQ(TESSERA_INVALID_ARGUMENT, tessera_error_code(err));
  ASSERT_STREQ(expected, tessera_error_message(err));
  tessera_error_destroy(err);
}

static void a_missing_file_is_not_found(void) {
  tessera_error* err = NULL;
  char expected[400];
  const char* path = path_of("absent.bin");
  ASSERT_NULL(tessera_checkpoint_open(path, &err));
  snprintf(expected, sizeof expected, "cannot open %s: No such file or directory", path);
  ASSERT_EQ(TESSERA_NOT_FOUND, tessera_error_code(err));
  ASSERT_STREQ(expected, tessera_error_message(err));
  tessera_error_destroy(err);
}

static void a_null_path_is_invalid_argument_naming_it(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_checkpoint_open(NULL, &err));
  ASSERT_EQ(TESSERA_INVALID_ARGUMENT, tessera_error_code(err));
  ASSERT_STREQ("Argument 'path' is NULL; expected a valid pointer", tessera_error_message(err));
  tessera_error_destroy(err);
}

/* Format detection: the first bytes decide, then the name; directories. */

/* A fresh subdirectory of the test's directory, removed with its files. */
static const char* subdirectory(const char* name) {
  const char* path = path_of(name);
  mkdir(path, 0700);
  return path;
}

static const char* const kOneTensorHeader = "{\"x\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[0,2]}}";

/* Expects `checkpoint` to be open in `format` over `num_files` files, the
 * first one `first_file`. */
static void expect_opened(tessera_checkpoint* checkpoint, tessera_error* err, const char* format,
                          size_t num_files, const char* first_file) {
  ASSERT_OK(err);
  ASSERT_NOT_NULL(checkpoint);
  ASSERT_STREQ(format, tessera_checkpoint_format(checkpoint, &err));
  ASSERT_EQ(num_files, tessera_checkpoint_num_files(checkpoint, &err));
  ASSERT_STREQ(first_file, tessera_checkpoint_file_path(checkpoint, 0, &err));
  ASSERT_OK(err);
  tessera_checkpoint_destroy(checkpoint);
}

static void safetensors_content_opens_whatever_the_name(void) {
  tessera_error* err = NULL;
  const char* path = write_safetensors("weights.bin", kOneTensorHeader, 2);
  expect_opened(tessera_checkpoint_open(path, &err), err, "safetensors", 1, path);
}

static void gguf_content_opens_whatever_the_name(void) {
  tessera_error* err = NULL;
  const char* path = write_gguf("llama-q4.bin");
  expect_opened(tessera_checkpoint_open(path, &err), err, "gguf", 1, path);
}

/* json.dump(indent=2) writes the brace first; a newline before it is JSON too. */
static void a_json_object_opens_as_a_safetensors_index_whatever_the_name(void) {
  tessera_error* err = NULL;
  const char* index = "\n{\"weight_map\":{\"x\":\"part.safetensors\"}}";
  const char* shard = write_safetensors("part.safetensors", kOneTensorHeader, 2);
  expect_opened(tessera_checkpoint_open(write_file("weights.json", index, strlen(index)), &err), err,
                "safetensors", 1, shard);
}

/* Not '{' at byte 8: the content fits no format, the name says safetensors,
 * so the safetensors reader says what is wrong. */
static void a_damaged_file_gets_the_error_of_the_format_its_name_gives(void) {
  tessera_error* err = NULL;
  char expected[400];
  const char* path = write_safetensors("damaged.safetensors", "[1,2]", 0);
  ASSERT_NULL(tessera_checkpoint_open(path, &err));
  snprintf(expected, sizeof expected, "%s: byte 8: the header is an array, expected an object", path);
  ASSERT_EQ(TESSERA_INVALID_ARGUMENT, tessera_error_code(err));
  ASSERT_STREQ(expected, tessera_error_message(err));
  tessera_error_destroy(err);
}

/* The index wins over the single files beside it (Mistral's
 * consolidated.safetensors beside the shards). */
static void a_directory_opens_its_safetensors_index(void) {
  tessera_error* err = NULL;
  const char* index = "{\"weight_map\":{\"x\":\"model-00001-of-00001.safetensors\"}}";
  const char* directory = subdirectory("indexed");
  const char* shard = write_safetensors("indexed/model-00001-of-00001.safetensors", kOneTensorHeader, 2);
  write_safetensors("indexed/consolidated.safetensors", kOneTensorHeader, 2);
  write_file("indexed/model.safetensors.index.json", index, strlen(index));
  write_file("indexed/config.json", "{}", 2);
  expect_opened(tessera_checkpoint_open(directory, &err), err, "safetensors", 1, shard);
}

static void a_directory_opens_its_one_safetensors_file(void) {
  tessera_error* err = NULL;
  const char* directory = subdirectory("single");
  const char* file = write_safetensors("single/model.safetensors", kOneTensorHeader, 2);
  write_file("single/config.json", "{}", 2);
  expect_opened(tessera_checkpoint_open(directory, &err), err, "safetensors", 1, file);
}

static void a_directory_opens_the_first_of_the_gguf_splits_of_one_model(void) {
  tessera_error* err = NULL;
  const char* directory = subdirectory("split");
  const char* first = write_gguf_split("split/a-00001-of-00002.gguf", 1);
  write_gguf_split("split/a-00002-of-00002.gguf", 2);
  expect_opened(tessera_checkpoint_open(directory, &err), err, "gguf", 2, first);
}

/* Expects opening `directory` to fail with INVALID_ARGUMENT "DIRECTORY: what". */
static void expect_refused(const char* directory, const char* what) {
  tessera_error* err = NULL;
  char expected[700];
  ASSERT_NULL(tessera_checkpoint_open(directory, &err));
  snprintf(expected, sizeof expected, "%s: %s", directory, what);
  ASSERT_EQ(TESSERA_INVALID_ARGUMENT, tessera_error_code(err));
  ASSERT_STREQ(expected, tessera_error_message(err));
  tessera_error_destroy(err);
}

static void a_directory_of_several_safetensors_files_and_no_index_is_ambiguous(void) {
  const char* directory = subdirectory("several");
  write_safetensors("several/b.safetensors", kOneTensorHeader, 2);
  write_safetensors("several/a.safetensors", kOneTensorHeader, 2);
  expect_refused(directory,
                 "the directory holds several safetensors files and no *.safetensors.index.json (a.safetensors, "
                 "b.safetensors); give the path of one, or write the index");
}

static void a_directory_of_several_safetensors_indexes_is_ambiguous(void) {
  const char* directory = subdirectory("indexes");
  write_file("indexes/model.safetensors.index.json", "{}", 2);
  write_file("indexes/model.fp16.safetensors.index.json", "{}", 2);
  expect_refused(directory,
                 "the directory holds several safetensors indexes (model.fp16.safetensors.index.json, "
                 "model.safetensors.index.json); give the path of one");
}

static void a_directory_of_safetensors_and_gguf_files_is_ambiguous(void) {
  const char* directory = subdirectory("mixed");
  write_safetensors("mixed/model.safetensors", kOneTensorHeader, 2);
  write_gguf("mixed/model-Q4_K.gguf");
  expect_refused(directory,
                 "the directory holds both safetensors and GGUF files (model.safetensors, model-Q4_K.gguf); give "
                 "the path of the one to open");
}

/* A repository of quantizations: one file per model, none the first split. */
static void a_directory_of_gguf_files_of_several_models_is_ambiguous(void) {
  const char* directory = subdirectory("quantized");
  write_gguf("quantized/m-Q8_0.gguf");
  write_gguf("quantized/m-Q4_K.gguf");
  expect_refused(directory,
                 "the directory holds GGUF files of more than one model (m-Q4_K.gguf, m-Q8_0.gguf); give the path "
                 "of one (of a split model, its first split)");
}

static void a_directory_without_a_checkpoint_is_refused(void) {
  const char* directory = subdirectory("empty");
  write_file("empty/config.json", "{}", 2);
  expect_refused(directory,
                 "the directory holds no checkpoint; expected a *.safetensors.index.json, a .safetensors file or "
                 "the .gguf file(s) of one model");
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(a_safetensors_file_is_one_file_in_the_safetensors_format),
      HARNESS_TEST(safetensors_tensors_keep_the_header_order_with_absolute_offsets),
      HARNESS_TEST(a_sub_byte_type_is_a_block_of_elements),
      HARNESS_TEST(safetensors_metadata_is_listed_and_looked_up_by_key),
      HARNESS_TEST(a_tensor_is_looked_up_by_name),
      HARNESS_TEST(an_unknown_tensor_name_is_not_found_naming_it),
      HARNESS_TEST(an_unknown_metadata_key_is_not_found_naming_it),
      HARNESS_TEST(a_tensor_index_at_the_count_is_out_of_range),
      HARNESS_TEST(a_null_checkpoint_is_invalid_argument_naming_it),
      HARNESS_TEST(a_sharded_index_reads_every_file_in_name_order),
      HARNESS_TEST(a_gguf_file_has_its_shapes_outermost_first_and_its_quantized_blocks),
      HARNESS_TEST(the_first_gguf_split_opens_every_split),
      HARNESS_TEST(a_malformed_gguf_file_is_refused_with_its_file_and_byte),
      HARNESS_TEST(a_duplicate_safetensors_tensor_is_refused_with_its_file_and_byte),
      HARNESS_TEST(a_file_of_no_known_content_or_name_is_invalid_argument_listing_both),
      HARNESS_TEST(a_missing_file_is_not_found),
      HARNESS_TEST(a_null_path_is_invalid_argument_naming_it),
      HARNESS_TEST(safetensors_content_opens_whatever_the_name),
      HARNESS_TEST(gguf_content_opens_whatever_the_name),
      HARNESS_TEST(a_json_object_opens_as_a_safetensors_index_whatever_the_name),
      HARNESS_TEST(a_damaged_file_gets_the_error_of_the_format_its_name_gives),
      HARNESS_TEST(a_directory_opens_its_safetensors_index),
      HARNESS_TEST(a_directory_opens_its_one_safetensors_file),
      HARNESS_TEST(a_directory_opens_the_first_of_the_gguf_splits_of_one_model),
      HARNESS_TEST(a_directory_of_several_safetensors_files_and_no_index_is_ambiguous),
      HARNESS_TEST(a_directory_of_several_safetensors_indexes_is_ambiguous),
      HARNESS_TEST(a_directory_of_safetensors_and_gguf_files_is_ambiguous),
      HARNESS_TEST(a_directory_of_gguf_files_of_several_models_is_ambiguous),
      HARNESS_TEST(a_directory_without_a_checkpoint_is_refused),
      HARNESS_TEST(a_gguf_split_other_than_the_first_is_refused_with_its_file_and_byte),
  };
  const char* tmp = getenv("TMPDIR");
  int status;
  size_t i;
  snprintf(dir, sizeof dir, "%s/tessera_capi_checkpoint_XXXXXX", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
  if (mkdtemp(dir) == NULL) {
    perror("mkdtemp");
    return 1;
  }
  status = harness_main(argc, argv, tests, HARNESS_COUNT(tests));
  /* Last first: a subdirectory's files were named after it. */
  for (i = num_paths; i > 0; --i) remove(paths[i - 1]);
  rmdir(dir);
  return status;
}
