// The app's limits on the files a person drops on or picks in the browser page, for index.html,
// which asks them of every file before reading a byte of it (core/limits/folder_files.hpp holds
// the table; the native test calls these functions as the page does).
#pragma once

extern "C" {

// The most a file named `file_name` (a folder's file, by its name alone) may hold, in bytes: 0
// when the app does not read a file of that name (the page skips it), infinity for a .safetensors
// (read by the ranges its header declares, as on the desktop: it counts in its folder's total).
double attnlab_file_limit(const char* file_name);

// "" when a file at `path` (FOLDER/NAME, or NAME) of `size` bytes is within its limit; else the
// one line the desktop gives for it ("FOLDER/NAME: is 2 MiB, over the 1 MiB a model's ...").
const char* attnlab_file_refusal(const char* path, double size);

// "" when `total` bytes of files fit in the page's memory (its largest heap); else one line
// naming `label` and both numbers.
const char* attnlab_files_refusal(const char* label, double total);
}
