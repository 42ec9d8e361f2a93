//! A value held behind one pointer, absent when empty: for what a unit rarely has (ratings
//! under other systems, an `allow` list). 8 bytes in the unit, not 24 (issue 19: a unit was 208
//! bytes however short its line). It reads as the value it holds (`Deref`), an empty one when
//! absent; writing through it (`DerefMut`) makes the box.

/// `T` behind a pointer, `None` standing for `T::default()` (see the module's comment).
#[derive(Clone, Default)]
pub struct Thin<T>(Option<Box<T>>);

impl<T: Default + ThinEmpty> Thin<T> {
    /// The value, unboxed.
    pub fn into_inner(self) -> T {
        self.0.map(|b| *b).unwrap_or_default()
    }

    /// Whether it holds nothing (absent, or an empty value).
    pub fn is_empty(&self) -> bool {
        self.0.as_deref().is_none_or(ThinEmpty::is_empty_value)
    }
}

/// What "empty" means for a [`Thin`] value: it is then not boxed.
pub trait ThinEmpty: 'static {
    fn is_empty_value(&self) -> bool;
    /// The empty value, for reading an absent one.
    fn empty() -> &'static Self;
}

#[cfg(test)]
impl ThinEmpty for Vec<u32> {
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
    fn empty() -> &'static Self {
        static EMPTY: Vec<u32> = Vec::new();
        &EMPTY
    }
}

impl<T: Default + ThinEmpty> From<T> for Thin<T> {
    fn from(value: T) -> Self {
        if value.is_empty_value() {
            Thin(None)
        } else {
            Thin(Some(Box::new(value)))
        }
    }
}

impl<A, T: Default + ThinEmpty + FromIterator<A>> FromIterator<A> for Thin<T> {
    fn from_iter<I: IntoIterator<Item = A>>(iter: I) -> Self {
        Thin::from(iter.into_iter().collect::<T>())
    }
}

impl<T: Default + ThinEmpty> std::ops::Deref for Thin<T> {
    type Target = T;
    fn deref(&self) -> &T {
        match &self.0 {
            Some(value) => value,
            None => T::empty(),
        }
    }
}

impl<T: Default + ThinEmpty> std::ops::DerefMut for Thin<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.0.get_or_insert_with(Box::default)
    }
}

impl<T: Default + ThinEmpty + PartialEq> PartialEq for Thin<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Default + ThinEmpty + PartialEq> PartialEq<T> for Thin<T> {
    fn eq(&self, other: &T) -> bool {
        **self == *other
    }
}

impl<T: Default + ThinEmpty + Eq> Eq for Thin<T> {}

impl<T: Default + ThinEmpty + std::fmt::Debug> std::fmt::Debug for Thin<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

impl<T: Default + ThinEmpty + serde::Serialize> serde::Serialize for Thin<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(serializer)
    }
}

impl<'de, T: Default + ThinEmpty + serde::Deserialize<'de>> serde::Deserialize<'de> for Thin<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize(deserializer).map(Thin::from)
    }
}

impl<'a, T: Default + ThinEmpty> IntoIterator for &'a Thin<T>
where
    &'a T: IntoIterator,
{
    type Item = <&'a T as IntoIterator>::Item;
    type IntoIter = <&'a T as IntoIterator>::IntoIter;
    fn into_iter(self) -> Self::IntoIter {
        (**self).into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::Thin;

    /// Empty, it holds no box and reads as the empty value; written through, it holds what was
    /// written; it compares as its value.
    #[test]
    fn a_thin_value_reads_as_its_value() {
        let mut list: Thin<Vec<u32>> = Thin::default();
        assert!(list.is_empty() && list.0.is_none() && (*list).is_empty());
        assert_eq!(list, Thin::from(Vec::new()));
        assert!(Thin::from(Vec::<u32>::new()).0.is_none());
        list.push(3);
        assert_eq!(*list, vec![3]);
        assert_eq!(list, Thin::from(vec![3]));
        assert_ne!(list, Thin::default());
        assert_eq!(list.clone().into_inner(), vec![3]);
        assert_eq!(std::mem::size_of::<Thin<Vec<u32>>>(), 8);
        let read: Thin<Vec<u32>> = ron::from_str("[1, 2]").unwrap_or_default();
        assert_eq!(ron::to_string(&read).ok().as_deref(), Some("[1,2]"));
    }
}
