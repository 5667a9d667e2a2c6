//! MM-IQ: answer keys, prediction files, answer extraction and accuracy (issue 3).
