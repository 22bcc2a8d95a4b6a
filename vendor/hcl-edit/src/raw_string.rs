use crate::encode::EncodeState;
use crate::span_cell::SpanCell;
use hcl_primitives::InternalString;
use std::borrow::Cow;
use std::fmt::Write;
use std::ops::{self, Range};

/// Opaque string storage for raw HCL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawString(RawStringInner);

///
/// 16 bytes, where a `Range<usize>` and a `String` made it 24, and a short string (as nearly
/// every piece of whitespace between tokens is, which a parse keeps as explicit strings) is held
/// inline instead of on the heap: every decorated node holds two, so this decided most of what a
/// parsed tree costs per source byte (hcl-types patch 3, see `PATCHES.md`). A string is `Inline`
/// exactly when it fits, so equal strings have equal representations.
#[derive(Debug, Clone, PartialEq, Eq)]
enum RawStringInner {
    Empty,
    Spanned(SpanCell),
    /// The first `len` bytes of `bytes` (the rest zero) are the string.
    Inline {
        len: u8,
        bytes: [u8; INLINE],
    },
    Explicit(Box<InternalString>),
}

/// The longest string held inline.
const INLINE: usize = 14;

impl RawStringInner {
    /// `s` held inline if it fits, else boxed.
    fn text(s: &str) -> RawStringInner {
        if s.is_empty() {
            RawStringInner::Empty
        } else if s.len() <= INLINE {
            let mut bytes = [0; INLINE];
            bytes[..s.len()].copy_from_slice(s.as_bytes());
            RawStringInner::Inline {
                // At most INLINE (14): fits.
                #[allow(clippy::cast_possible_truncation)]
                len: s.len() as u8,
                bytes,
            }
        } else {
            RawStringInner::Explicit(Box::new(InternalString::from(s)))
        }
    }
}

impl RawString {
    pub(crate) fn from_span(span: Range<usize>) -> Self {
        let cell = SpanCell::new(span.clone());
        if span.is_empty() || cell.get().is_none() {
            RawString(RawStringInner::Empty)
        } else {
            RawString(RawStringInner::Spanned(cell))
        }
    }

    pub(crate) fn span(&self) -> Option<Range<usize>> {
        match &self.0 {
            RawStringInner::Empty | RawStringInner::Inline { .. } | RawStringInner::Explicit(_) => {
                None
            }
            RawStringInner::Spanned(span) => span.get(),
        }
    }

    /// Returns the `RawString` as a `&str`.
    pub(crate) fn as_str(&self) -> &str {
        match &self.0 {
            RawStringInner::Empty | RawStringInner::Spanned(_) => "",
            // Copied from a `&str` (see `RawStringInner::text`): valid UTF-8.
            RawStringInner::Inline { len, bytes } => {
                std::str::from_utf8(&bytes[..usize::from(*len)]).unwrap_or_default()
            }
            RawStringInner::Explicit(s) => s.as_str(),
        }
    }

    pub(crate) fn encode_with_default(
        &self,
        buf: &mut EncodeState,
        default: &str,
    ) -> std::fmt::Result {
        if let RawStringInner::Spanned(_) = self.0 {
            buf.write_str(default)
        } else {
            buf.write_str(self.as_str())
        }
    }

    pub(crate) fn despan(&mut self, input: &str) {
        match &self.0 {
            RawStringInner::Empty | RawStringInner::Inline { .. } | RawStringInner::Explicit(_) => {
            }
            RawStringInner::Spanned(cell) => {
                let span = cell.get().unwrap_or_default();
                *self = RawString::from(input.get(span.clone()).unwrap_or_else(|| {
                    panic!("span {span:?} should be in input:\n```\n{input}\n```")
                }));
            }
        }
    }
}

impl Default for RawString {
    fn default() -> Self {
        RawString(RawStringInner::Empty)
    }
}

impl ops::Deref for RawString {
    type Target = str;

    #[inline]
    fn deref(&self) -> &Self::Target {
        self.as_str()
    }
}

impl From<&str> for RawString {
    #[inline]
    fn from(s: &str) -> Self {
        RawString(RawStringInner::text(s))
    }
}

impl<'a> From<Cow<'a, str>> for RawString {
    #[inline]
    fn from(s: Cow<'a, str>) -> Self {
        if s.is_empty() {
            RawString(RawStringInner::Empty)
        } else {
            RawString::from(InternalString::from(s))
        }
    }
}

impl From<String> for RawString {
    #[inline]
    fn from(s: String) -> Self {
        if s.is_empty() {
            RawString(RawStringInner::Empty)
        } else {
            RawString::from(InternalString::from(s))
        }
    }
}

impl From<InternalString> for RawString {
    #[inline]
    fn from(inner: InternalString) -> Self {
        if inner.len() <= INLINE {
            RawString(RawStringInner::text(inner.as_str()))
        } else {
            RawString(RawStringInner::Explicit(Box::new(inner)))
        }
    }
}

impl From<RawString> for Cow<'_, str> {
    #[inline]
    fn from(s: RawString) -> Self {
        match s.0 {
            RawStringInner::Empty | RawStringInner::Spanned(_) => Cow::Borrowed(""),
            RawStringInner::Inline { .. } => Cow::Owned(s.as_str().to_owned()),
            RawStringInner::Explicit(s) => (*s).into(),
        }
    }
}

impl<'a> From<&'a RawString> for Cow<'a, str> {
    #[inline]
    fn from(s: &'a RawString) -> Self {
        Cow::Borrowed(s.as_str())
    }
}
