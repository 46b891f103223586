//! How the values people read and type are written and read: times as staff
//! read them (`dates`), CSV files as they open them (`csv`), characters that
//! make text read otherwise than it looks (`characters`), e-mail addresses
//! (`email`) and WhatsApp numbers (`whatsapp`).

pub mod characters;
pub mod csv;
pub mod dates;
pub mod email;
pub mod whatsapp;
